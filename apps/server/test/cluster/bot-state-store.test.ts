import type { BotState } from '@bot/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBotStateStore } from '../../src/modules/realtime/index.ts';
import { type RedisServer, startRedisServer } from '../redis-server.ts';

let server: RedisServer;
let redis: Redis;
let store: RedisBotStateStore;

const stateOf = (hwid: string, level = 1): BotState => ({
  hwid,
  owner: { id: 'u', username: 'owner' },
  online: true,
  version: '1.0.0',
  connectedAt: '2026-11-25T00:00:00.000Z',
  lastSeenAt: '2026-11-25T00:00:00.000Z',
  accounts: [
    {
      name: 'acc',
      character: 'c',
      level,
      status: 'idle',
      position: { mapId: 1, x: 0, y: 0 },
      routeId: null,
      stats: { gathered: 0, treasures: 0, kamas: 0, xp: 0 },
      message: null,
    },
  ],
});

beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.url);
  store = new RedisBotStateStore(redis);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

describe('the Redis bot state store', () => {
  it('writes a flush in script calls of 500, skipping (and naming) the bots another holder took', async () => {
    const hwids = Array.from({ length: 1_200 }, (_, index) => `HW-STORE-${index}`);
    await store.claim({ state: stateOf('HW-STORE-7'), holder: 'node-b' }, 60_000);
    const lost = await store.update(
      hwids.map((hwid) => ({ state: stateOf(hwid, 2), holder: 'node-a' })),
      60_000,
    );
    expect(lost).toEqual(['HW-STORE-7']);
    expect(await store.count()).toBe(1_200);
    expect((await store.get('HW-STORE-7'))?.accounts[0]?.level).toBe(1);
    expect((await store.get('HW-STORE-1199'))?.accounts[0]?.level).toBe(2);
    expect(await redis.pttl('bp:bot:HW-STORE-0')).toBeGreaterThan(50_000);
    // The holder that lost the bot cannot release it either; the one holding it can.
    expect(await store.release('HW-STORE-7', 'node-a')).toBe(false);
    expect(await store.release('HW-STORE-7', 'node-b')).toBe(true);
    expect(await store.count()).toBe(1_199);
  });
});
