import { registerSW } from 'virtual:pwa-register';
import { notifyInfo } from '../../lib/notify.ts';
import { reloadPageOnce } from '../../lib/reload-guard.ts';
import { fetchLatestBuildId, isNewerBuild } from './build-check.ts';

const SW_UPDATE_WAIT_MS = 3000;
const delay = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** Resolves once the page has loaded (at once if it already has). */
const pageLoaded = () =>
  document.readyState === 'complete'
    ? Promise.resolve()
    : new Promise<void>((resolve) => window.addEventListener('load', () => resolve(), { once: true }));

/**
 * docs/specification.md §7: reload on a newer build (polled at the configured interval) and on a lazy chunk
 * that fails to load, both behind the 10 s reload guard; the service worker reloads on update or
 * external activation and says "offline ready" only on its first install.
 *
 * The chunk listener is set at once; the rest waits for the runtime config (the poll interval, the
 * build the server announces) and for the page's load event: the service worker's registration
 * (workbox-window, then the precache downloads) stays out of the first paint's way.
 */
export function startBuildUpdates(config: Promise<{ buildCheckIntervalMs: number; buildId: string }>): void {
  // A lazy chunk that fails to load (usually removed by a newer deployment): reload once; when the
  // guard refuses, the error goes on to the route's error view.
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadPageOnce('chargement d’un module impossible')) event.preventDefault();
  });

  if (import.meta.env.DEV) return;
  void Promise.all([config, pageLoaded()]).then(([{ buildCheckIntervalMs, buildId }]) =>
    watchBuilds(buildCheckIntervalMs, buildId),
  );
}

function watchBuilds(intervalMs: number, announcedBuildId: string): void {
  let registration: ServiceWorkerRegistration | undefined;
  registerSW({
    immediate: true,
    onNeedReload: () => reloadPageOnce('service worker mis à jour'),
    // First install only; the toast keeps every toast's settings (position, theme, duration):
    // overriding its position stretched it into a screen-high panel (docs/decisions/106).
    onOfflineReady: () => notifyInfo('L’application est prête à fonctionner hors ligne.'),
    onRegisteredSW: (_url, found) => {
      registration = found;
    },
  });

  const check = async () => {
    const latest = await fetchLatestBuildId();
    if (isNewerBuild(__BUILD_ID__, latest)) {
      // Let the service worker fetch the new shell first (at most a few seconds), so the reload does
      // not serve the old one from its cache.
      if (registration) {
        await Promise.race([registration.update().catch(() => undefined), delay(SW_UPDATE_WAIT_MS)]);
      }
      reloadPageOnce('nouvelle version');
    }
  };

  if (isNewerBuild(__BUILD_ID__, announcedBuildId)) void check();
  window.setInterval(() => void check(), intervalMs);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void check();
  });
}
