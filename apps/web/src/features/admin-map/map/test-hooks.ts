import type { BotState } from '@bot/contracts';
import type { QueryClient } from '@tanstack/react-query';
import {
  applyBatch,
  applySnapshot,
  emptyFleet,
  type LiveFleet,
  liveKeys,
} from '../../../lib/socket/index.ts';
import type { FleetBuffers } from './fleet-buffers.ts';
import type { MapRenderer } from './map-renderer.ts';

/**
 * The map's insides for the journeys and the benchmark (`window.__adminMap`). Its own chunk, loaded
 * only when the `admin-map-test-hook` localStorage flag is set: users never download it.
 */
declare global {
  interface Window {
    __adminMap?: {
      renderer: MapRenderer;
      buffers: FleetBuffers;
      /** Writes states the way the admin socket's handlers do (watchFleet in lib/socket/fleet-cache.ts). */
      inject: (states: BotState[], asSnapshot?: boolean) => void;
    };
  }
}

export function installMapTestHooks(input: {
  renderer: MapRenderer;
  buffers: FleetBuffers;
  queryClient: QueryClient;
}): () => void {
  const { renderer, buffers, queryClient } = input;
  window.__adminMap = {
    renderer,
    buffers,
    inject: (states, asSnapshot = false) => {
      const current = queryClient.getQueryData<LiveFleet>(liveKeys.fleet) ?? emptyFleet;
      queryClient.setQueryData(
        liveKeys.fleet,
        asSnapshot ? applySnapshot(states, undefined, current.version) : applyBatch(current, states),
      );
    },
  };
  return () => {
    delete window.__adminMap;
  };
}
