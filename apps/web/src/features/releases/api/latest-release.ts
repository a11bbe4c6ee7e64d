import { type LatestRelease, latestReleaseAnswer, type ReleaseChannel } from '@bot/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { joinUrl } from '../../../lib/api-client.ts';
import { getRuntimeConfig } from '../../../lib/runtime-config.ts';

/** Download links last 15 minutes: a page left open asks for a fresh one well before. */
const REFRESH_MS = 10 * 60_000;

export type LatestReleaseState =
  | { status: 'loading' }
  | { status: 'ready'; latest: LatestRelease | null }
  | { status: 'failed'; message: string };

/**
 * The newest build of a channel with its signed link. A plain effect, not TanStack Query: the card
 * also sits on the public /started page, which loads no query client (docs/decisions/103).
 */
export function useLatestRelease(channel: ReleaseChannel, enabled: boolean): LatestReleaseState {
  const [state, setState] = useState<LatestReleaseState>({ status: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const load = () =>
      api
        .get(`/releases/latest?channel=${channel}`, {
          schema: latestReleaseAnswer,
          silent: true,
          signal: controller.signal,
          fallback: 'Impossible de charger la dernière version.',
        })
        .then((answer) => setState({ status: 'ready', latest: answer.data }))
        .catch((error: Error) => {
          if (!controller.signal.aborted) setState({ status: 'failed', message: error.message });
        });
    setState({ status: 'loading' });
    void load();
    const timer = setInterval(load, REFRESH_MS);
    // Timers sleep with a hidden tab: coming back gets a fresh link before the old one expires.
    const onVisible = () => {
      if (document.visibilityState === 'visible') void load();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      controller.abort();
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [channel, enabled]);
  return state;
}

/** The signed link as the browser fetches it (the API may live on another origin). */
export function downloadHref(latest: LatestRelease): string {
  return joinUrl(getRuntimeConfig().apiBaseUrl, latest.download.url);
}
