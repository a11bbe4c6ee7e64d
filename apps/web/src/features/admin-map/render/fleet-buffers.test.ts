import type { BotState } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { FleetBuffers } from './fleet-buffers.ts';

function bot(
  hwid: string,
  owner: string,
  statuses: BotState['accounts'][number]['status'][],
  version = '1.0.0',
): BotState {
  return {
    hwid,
    owner: { id: owner, username: owner },
    online: true,
    version,
    connectedAt: '',
    lastSeenAt: '',
    accounts: statuses.map((status, index) => ({
      name: `${hwid}-${index}`,
      character: `c${index}`,
      level: 1,
      status,
      position: { mapId: 0, x: index, y: -index },
      routeId: null,
      stats: { gathered: 0, treasures: 0, kamas: 0, xp: 0 },
      message: null,
    })),
  };
}

describe('FleetBuffers', () => {
  it('keeps one slot per account, reuses freed slots and grows past its capacity', () => {
    const buffers = new FleetBuffers(2);
    buffers.setBot(bot('A', 'alice', ['gathering', 'fighting', 'idle']));
    buffers.setBot(bot('B', 'bob', ['banking']));
    expect(buffers.size).toBe(4);
    expect(buffers.capacity).toBeGreaterThanOrEqual(4);
    buffers.setBot(bot('A', 'alice', ['gathering']));
    expect(buffers.size).toBe(2);
    buffers.removeBot('B');
    expect(buffers.size).toBe(1);
    expect(buffers.botCount()).toBe(1);
    const highWater = buffers.highWater;
    buffers.setBot(bot('C', 'carol', ['idle', 'idle', 'idle']));
    expect(buffers.highWater).toBe(highWater); // freed slots reused
    expect(buffers.size).toBe(4);
    expect(buffers.visibleCount).toBe(4);
  });

  it('filters by status and owner', () => {
    const buffers = new FleetBuffers();
    buffers.setBot(bot('A', 'Alice', ['gathering', 'fighting']));
    buffers.setBot(bot('B', 'bob', ['gathering']));
    buffers.setFilter({ statuses: new Set(['gathering']), owner: '', version: '' });
    expect(buffers.visibleCount).toBe(2);
    buffers.setFilter({ statuses: new Set(), owner: 'ali', version: '' });
    expect(buffers.visibleCount).toBe(2);
    buffers.setFilter({ statuses: new Set(['fighting']), owner: 'BOB', version: '' });
    expect(buffers.visibleCount).toBe(0);
    buffers.setBot(bot('D', 'bobby', ['fighting']));
    expect(buffers.visibleCount).toBe(1);
    buffers.removeBot('D');
    expect(buffers.visibleCount).toBe(0);
  });

  it('filters by the start of the agent version', () => {
    const buffers = new FleetBuffers();
    buffers.setBot(bot('A', 'alice', ['gathering', 'fighting'], '1.4.0'));
    buffers.setBot(bot('B', 'bob', ['gathering'], '1.5.2'));
    buffers.setBot(bot('C', 'carol', ['gathering'], '1.40.0'));
    buffers.setFilter({ statuses: new Set(), owner: '', version: '1.4' });
    expect(buffers.visibleCount).toBe(2);
    buffers.setFilter({ statuses: new Set(), owner: '', version: '1.5.2' });
    expect(buffers.visibleCount).toBe(1);
    buffers.setBot(bot('B', 'bob', ['gathering'], '1.6.0')); // the agent was updated
    expect(buffers.visibleCount).toBe(0);
  });
});
