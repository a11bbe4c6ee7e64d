import type { BotState } from '@bot/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { applyBatch, applySnapshot, emptyFleet, type LiveFleet } from '../../../lib/socket/fleet-cache.ts';
import { liveKeys } from '../../../lib/socket/live-keys.ts';
import type { MapEngine } from '../render/use-map-engine.ts';

/**
 * The map's insides for the benchmark (bench/map), `window.__adminMap`: only in the instrumented
 * build (`vite build --mode instrumented`), never in the production bundle (e2e/live-map checks it).
 */
declare global {
  interface Window {
    __adminMap?: MapEngine & {
      /** Writes states the way the admin socket's handlers do (watchFleet in lib/socket/fleet-cache.ts). */
      inject: (states: BotState[], asSnapshot?: boolean) => void;
    };
  }
}

export function installMapInstruments(engine: MapEngine, queryClient: QueryClient): () => void {
  window.__adminMap = {
    ...engine,
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
