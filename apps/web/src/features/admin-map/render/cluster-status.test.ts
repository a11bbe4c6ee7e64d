import { BOT_STATUSES, type BotStatus } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { clusterStatus } from './cluster-status.ts';

function countsOf(bots: Partial<Record<BotStatus, number>>): number[] {
  return BOT_STATUSES.map((status) => bots[status] ?? 0);
}
const statusOf = (bots: Partial<Record<BotStatus, number>>) => BOT_STATUSES[clusterStatus(countsOf(bots))];

describe('the status a cluster shows', () => {
  it('is the error of one bot among 99 idle ones', () => {
    expect(statusOf({ idle: 99, error: 1 })).toBe('error');
  });

  it('puts stopped before fighting, fighting before routine work', () => {
    expect(statusOf({ fighting: 10, stopped: 2 })).toBe('stopped');
    expect(statusOf({ gathering: 40, fighting: 1 })).toBe('fighting');
  });

  it('takes the most frequent among equally urgent statuses', () => {
    expect(statusOf({ moving: 5, gathering: 3, idle: 4 })).toBe('moving');
  });

  it('reads the counts of one cell from a shared array', () => {
    const cells = [...countsOf({ idle: 3 }), ...countsOf({ banking: 2, error: 1 })];
    expect(BOT_STATUSES[clusterStatus(cells, BOT_STATUSES.length)]).toBe('error');
    expect(BOT_STATUSES[clusterStatus(cells, 0)]).toBe('idle');
  });
});
