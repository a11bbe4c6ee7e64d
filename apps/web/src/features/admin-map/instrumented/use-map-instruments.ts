import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { MapEngineRef } from '../render/use-map-engine.ts';

/**
 * Exposes the engine to the benchmark in the instrumented build only (`vite build --mode instrumented`,
 * which bench/map runs into apps/web/dist.instrumented). Vite writes the mode into the bundle as a
 * literal: in any other build the comparison is constant, the bundler drops the branch with its import
 * and the instruments' chunk is never emitted.
 */
export function useMapInstruments(engine: MapEngineRef): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (import.meta.env.MODE !== 'instrumented') return;
    const current = engine.current;
    if (!current) return;
    let uninstall: (() => void) | undefined;
    let isUnmounted = false;
    void import('./map-instruments.ts').then(({ installMapInstruments }) => {
      if (!isUnmounted) uninstall = installMapInstruments(current, queryClient);
    });
    return () => {
      isUnmounted = true;
      uninstall?.();
    };
  }, [engine, queryClient]);
}
