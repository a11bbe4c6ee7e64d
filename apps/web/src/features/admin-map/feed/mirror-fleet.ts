import type { LiveFleet } from '../../../lib/socket/fleet-cache.ts';
import type { MapEngine } from '../render/use-map-engine.ts';

/** Writes what the last fleet change touched into the buffers (everything on a snapshot). */
function applyFleet(buffers: MapEngine['buffers'], fleet: LiveFleet): void {
  if (fleet.isSnapshot) {
    buffers.clear();
    for (const state of fleet.bots.values()) buffers.setBot(state);
    return;
  }
  for (const hwid of fleet.changed) {
    const state = fleet.bots.get(hwid);
    if (state) buffers.setBot(state);
  }
  for (const hwid of fleet.removed) buffers.removeBot(hwid);
}

/**
 * Mirrors successive fleets into the engine. The first fleet seen is applied whole even when it is a
 * delta: the map may mount after the snapshot, and a delta alone would leave the others out.
 */
export function createFleetMirror({ buffers, renderer }: MapEngine) {
  let lastFleet: LiveFleet | undefined;
  return {
    show(fleet: LiveFleet): void {
      if (fleet === lastFleet) return;
      applyFleet(buffers, lastFleet ? fleet : { ...fleet, isSnapshot: true });
      // Oldest first: a newer node's counts are drawn over an older one's.
      renderer.setServerCells(
        fleet.feed === 'viewport'
          ? [...fleet.cells.values()].sort((a, b) => a.receivedAt - b.receivedAt)
          : null,
      );
      lastFleet = fleet;
    },
    /** The cached fleet is gone (garbage-collected or reset): nothing to draw until the next. */
    clear(): void {
      buffers.clear();
      lastFleet = undefined;
    },
  };
}
