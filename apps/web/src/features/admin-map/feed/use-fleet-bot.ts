import type { BotState } from '@bot/contracts';
import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LiveFleet } from '../../../lib/socket/fleet-cache.ts';
import { liveKeys } from '../../../lib/socket/live-keys.ts';

const FLEET_HASH = hashKey(liveKeys.fleet);

/** The live state of one bot from the fleet in the cache; re-renders only when that bot changes. */
export function useFleetBot(hwid: string | null): BotState | null {
  const queryClient = useQueryClient();
  const [state, setState] = useState<BotState | null>(null);
  useEffect(() => {
    if (!hwid) {
      setState(null);
      return;
    }
    const read = () => queryClient.getQueryData<LiveFleet>(liveKeys.fleet)?.bots.get(hwid) ?? null;
    setState(read());
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.query.queryHash === FLEET_HASH) {
        const next = read();
        setState((previous) => (previous === next ? previous : next));
      }
    });
  }, [queryClient, hwid]);
  return state;
}
