import type { World } from '@bot/contracts';
import { useEffect } from 'react';
import type { MapFilter } from './fleet-buffers.ts';
import type { MapEngineRef } from './use-map-engine.ts';

/** Hands the page's choices to the engine: the filter, the selected bot, the world drawn under the bots. */
export function useRendererInputs(
  engine: MapEngineRef,
  inputs: { filter: MapFilter; selectedHwid: string | null; world: World | null | undefined },
): void {
  const { filter, selectedHwid, world } = inputs;
  useEffect(() => {
    engine.current?.buffers.setFilter(filter);
    engine.current?.renderer.markDirty();
  }, [engine, filter]);

  useEffect(() => {
    const renderer = engine.current?.renderer;
    if (!renderer) return;
    renderer.selectedHwid = selectedHwid;
    renderer.markDirty();
  }, [engine, selectedHwid]);

  useEffect(() => {
    const renderer = engine.current?.renderer;
    if (!renderer || world === undefined) return;
    renderer.setWorld(world);
    renderer.fit();
  }, [engine, world]);
}
