import { useCallback, useEffect, useRef } from 'react';
import { countCellAccounts, type LiveFleet } from '../../../lib/socket/fleet-cache.ts';
import type { MapEngineRef } from '../render/use-map-engine.ts';
import { VIEWPORT_CHECK_MS } from './use-viewport-follow.ts';

export interface MapCounts {
  /** Bots online in the whole fleet. */
  online: number;
  /** Accounts on the map: held here, plus those the nodes count for clustered areas. */
  accounts: number;
  /** The same, only those passing the filter. */
  shown: number;
}

/**
 * Reports the map's counts to the page when they change — on each fleet mirrored, and on a timer since
 * filters and zoom change them without a fleet change. Rarely: never once per frame.
 */
export function useMapCounts(
  engine: MapEngineRef,
  onCounts: (counts: MapCounts) => void,
): (fleet: LiveFleet | undefined) => void {
  const listener = useRef(onCounts);
  listener.current = onCounts;
  const lastFleet = useRef<LiveFleet | undefined>(undefined);
  const lastKey = useRef('');

  const report = useCallback(
    (fleet: LiveFleet | undefined) => {
      const buffers = engine.current?.buffers;
      if (!buffers) return;
      lastFleet.current = fleet;
      // On the viewport feed, nodes count the accounts of clustered areas (the others are held here).
      const counted = fleet?.feed === 'viewport' ? countCellAccounts(fleet) : 0;
      const counts = {
        online: fleet?.onlineCount ?? 0,
        accounts: counted + buffers.size,
        shown: counted + buffers.visibleCount,
      };
      const key = `${counts.online}/${counts.accounts}/${counts.shown}`;
      if (key === lastKey.current) return;
      lastKey.current = key;
      listener.current(counts);
    },
    [engine],
  );

  useEffect(() => {
    const timer = window.setInterval(() => report(lastFleet.current), VIEWPORT_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [report]);
  return report;
}
