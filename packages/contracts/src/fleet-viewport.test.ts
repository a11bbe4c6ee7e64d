import { describe, expect, it } from 'vitest';
import type { BotAccount, BotState, MapViewport } from './bots.ts';
import { MAP_CELL_STRIDE, mapCellOf, viewportMatcher } from './fleet-viewport.ts';

const viewport = (changes: Partial<MapViewport> = {}): MapViewport => ({
  minX: -10,
  minY: -10,
  maxX: 10,
  maxY: 10,
  cellSize: null,
  statuses: [],
  owner: '',
  version: '',
  ...changes,
});

const accountAt = (x: number, y: number, status: BotAccount['status'] = 'idle'): BotAccount => ({
  name: `a${x}_${y}`,
  character: 'c',
  level: 1,
  status,
  position: { mapId: 1, x, y },
  routeId: null,
  stats: { gathered: 0, treasures: 0, kamas: 0, xp: 0 },
  message: null,
});

const bot = (accounts: BotAccount[], owner = 'Alice', version = '1.4.2'): BotState => ({
  hwid: `hw-${owner}`,
  owner: { id: owner, username: owner },
  online: true,
  version,
  connectedAt: '',
  lastSeenAt: '',
  accounts,
});

describe('viewportMatcher', () => {
  it('shows a bot when one account is inside the bounds (edges included)', () => {
    const { shows } = viewportMatcher(viewport());
    expect(shows(bot([accountAt(10, -10)]))).toBe(true);
    expect(shows(bot([accountAt(11, 0), accountAt(0, 0)]))).toBe(true);
    expect(shows(bot([accountAt(11, 0), accountAt(0, -11)]))).toBe(false);
    expect(shows(bot([]))).toBe(false);
  });

  it('applies the owner (any case), version and status filters', () => {
    const inside = [accountAt(0, 0, 'fighting')];
    expect(viewportMatcher(viewport({ owner: 'LIC' })).shows(bot(inside))).toBe(true);
    expect(viewportMatcher(viewport({ owner: 'bob' })).shows(bot(inside))).toBe(false);
    expect(viewportMatcher(viewport({ version: '1.4' })).shows(bot(inside))).toBe(true);
    expect(viewportMatcher(viewport({ version: '1.40' })).shows(bot(inside))).toBe(false);
    expect(viewportMatcher(viewport({ statuses: ['fighting'] })).shows(bot(inside))).toBe(true);
    expect(viewportMatcher(viewport({ statuses: ['idle'] })).shows(bot(inside))).toBe(false);
  });

  it('counts shown accounts per cell and status', () => {
    const matcher = viewportMatcher(viewport({ cellSize: 5, statuses: ['idle', 'error'] }));
    const cells = matcher.countCells([
      bot([accountAt(0, 0), accountAt(4, 4), accountAt(5, 0, 'error'), accountAt(0, 0, 'moving')]),
      bot([accountAt(1, 1, 'error'), accountAt(50, 50)], 'Bob'),
    ]);
    const byCell = new Map<string, number[]>();
    for (let at = 0; at < cells.length; at += MAP_CELL_STRIDE) {
      const [column, row, ...counts] = cells.slice(at, at + MAP_CELL_STRIDE);
      byCell.set(`${column},${row}`, counts);
    }
    // idle is status 0, error status 7 (BOT_STATUSES); moving is filtered out, (50, 50) out of bounds.
    expect(Object.fromEntries(byCell)).toEqual({
      '0,0': [2, 0, 0, 0, 0, 0, 0, 1],
      '1,0': [0, 0, 0, 0, 0, 0, 0, 1],
    });
  });

  it('puts a coordinate in the same cell as the map draws it', () => {
    expect([mapCellOf(-1, 4), mapCellOf(0, 4), mapCellOf(3, 4), mapCellOf(4, 4)]).toEqual([-1, 0, 0, 1]);
  });
});
