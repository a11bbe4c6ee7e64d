import type { BotState, MapCells } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { applyBatch, applySnapshot } from '../../../lib/socket/fleet-cache.ts';
import { FleetBuffers } from '../render/fleet-buffers.ts';
import type { MapEngine } from '../render/use-map-engine.ts';
import { createFleetMirror } from './mirror-fleet.ts';

/** A bot with one game account at (x, y). */
function botAt(hwid: string, x: number, y: number): BotState {
  const account = {
    name: `${hwid}-account`,
    character: 'Perso',
    level: 1,
    status: 'idle' as const,
    position: { mapId: 0, x, y },
    routeId: null,
    stats: { gathered: 0, treasures: 0, kamas: 0, xp: 0 },
    message: null,
  };
  const owner = { id: 'u1', username: 'alice' };
  return {
    hwid,
    owner,
    online: true,
    version: '1.0.0',
    connectedAt: '',
    lastSeenAt: '',
    accounts: [account],
  };
}

function engine() {
  const drawn: { cells: readonly MapCells[] | null } = { cells: null };
  const renderer = { setServerCells: (cells: readonly MapCells[] | null) => (drawn.cells = cells) };
  const buffers = new FleetBuffers(4);
  return { buffers, drawn, engine: { buffers, renderer } as unknown as MapEngine };
}

describe('createFleetMirror', () => {
  it('applies the first fleet whole, then only what each change touched', () => {
    const { buffers, engine: map } = engine();
    const mirror = createFleetMirror(map);
    const first = applySnapshot([botAt('A', 1, 1), botAt('B', 2, 2)]);
    // The map mounted after the snapshot: a delta alone would leave A out.
    mirror.show(applyBatch(first, [botAt('B', 3, 3)]));
    expect(buffers.size).toBe(2);
    const moved = applyBatch(first, [botAt('A', 5, 6), { ...botAt('B', 0, 0), online: false }]);
    mirror.show(moved);
    expect(buffers.slotsOf('B')).toEqual([]);
    const [slot] = buffers.slotsOf('A');
    expect([buffers.x[slot!], buffers.y[slot!]]).toEqual([5, 6]);
    mirror.clear();
    expect(buffers.size).toBe(0);
  });

  it('hands the nodes’ counts to the renderer on the viewport feed, oldest first; none on the full feed', () => {
    const { drawn, engine: map } = engine();
    const mirror = createFleetMirror(map);
    mirror.show(applySnapshot([]));
    expect(drawn.cells).toBeNull();
    const cells = new Map([
      ['n2', { node: 'n2', cellSize: 32, cells: [], receivedAt: 20 }],
      ['n1', { node: 'n1', cellSize: 32, cells: [], receivedAt: 10 }],
    ]);
    mirror.show({ ...applySnapshot([]), feed: 'viewport', cells });
    expect(drawn.cells?.map((entry) => entry.node)).toEqual(['n1', 'n2']);
  });
});
