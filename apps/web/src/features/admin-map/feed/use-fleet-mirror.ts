import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { emptyFleet, type LiveFleet } from '../../../lib/socket/fleet-cache.ts';
import { liveKeys } from '../../../lib/socket/live-keys.ts';
import type { MapEngineRef } from '../render/use-map-engine.ts';
import { createFleetMirror } from './mirror-fleet.ts';

const FLEET_HASH = hashKey(liveKeys.fleet);

/**
 * Mirrors the fleet the admin socket writes to the query cache into the map's buffers, on each cache
 * change, without a React render: 10,000 moving accounts would re-render the page several times a
 * second. `onFleet` hears each fleet mirrored (undefined when the cached one is gone).
 */
export function useFleetMirror(engine: MapEngineRef, onFleet: (fleet: LiveFleet | undefined) => void): void {
  const queryClient = useQueryClient();
  const listener = useRef(onFleet);
  listener.current = onFleet;
  // Keeps the fleet query observed (not garbage-collected) without re-rendering on its changes.
  useQuery({
    queryKey: liveKeys.fleet,
    queryFn: () => emptyFleet,
    staleTime: Number.POSITIVE_INFINITY,
    notifyOnChangeProps: [],
  });

  useEffect(() => {
    const current = engine.current;
    if (!current) return;
    const mirror = createFleetMirror(current);
    const show = (fleet: LiveFleet | undefined) => {
      if (fleet) mirror.show(fleet);
      else mirror.clear();
      listener.current(fleet);
    };
    const cached = queryClient.getQueryData<LiveFleet>(liveKeys.fleet);
    if (cached) show(cached);
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.query.queryHash !== FLEET_HASH) return;
      show(event.query.state.data as LiveFleet | undefined);
    });
  }, [engine, queryClient]);
}
