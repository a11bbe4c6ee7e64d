import type { BotHistoryPoint, BotState } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import {
  account,
  connectOwnerBot,
  createBotOwner,
  newHwid,
  type TestSocket,
} from '../../../test/helpers/realtime.ts';
import { updateSettings } from '../settings/index.ts';
import { rotateBotKey, users } from '../users/index.ts';
import { botActivityMinutes } from './bots.table.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];
const MINUTE_MS = 60_000;
/**
 * The app's clock, one second before a minute turns: the history's minutes end only when a test
 * moves it, however long the run takes (on the wall clock a periodic flush could write a minute
 * that ended while a test was reading what was still buffered).
 */
const clock = new ManualClock(Math.ceil(Date.now() / MINUTE_MS) * MINUTE_MS - 1_000);

beforeAll(async () => {
  server = await startTestServer({
    clock,
    // The periodic history flush runs all along: only a minute's end lets it write.
    realtime: { historyFlushMs: 100, botUpdatesPerSecond: 50, floodMessagesPer10s: 1_000 },
  });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

async function botKeyOf(token: string): Promise<string> {
  const answer = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, token);
  return answer.body.data.accessKey;
}

describe('POST /api/bot/sessions', () => {
  it('binds the hwid on first use, then refuses another PC', async () => {
    const owner = await server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] });
    const accessKey = await botKeyOf(owner.token);
    const hwid = newHwid();
    const opened = await call<{ token: string; expiresAt: string; whitelist: string[] }>(
      'POST',
      '/bot/sessions',
      {
        accessKey,
        hwid,
        version: '1.2.3',
      },
    );
    expect(opened.status).toBe(201);
    expect(opened.body.token).toMatch(/^bs_/);
    expect(new Date(opened.body.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const info = await call<{ data: { hwid: string } }>('GET', '/me/info', undefined, owner.token);
    expect(info.body.data.hwid).toBe(hwid);

    expect((await call('POST', '/bot/sessions', { accessKey, hwid, version: '1.2.3' })).status).toBe(201);
    const other = await call('POST', '/bot/sessions', { accessKey, hwid: newHwid(), version: '1.2.3' });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ code: 'HWID_MISMATCH' });
    expect(other.body.error).toMatch(/autre PC/);

    // After the owner unbinds the PC, a new one binds.
    await server.ctx.db.update(users).set({ hwidResetAt: null }).where(eq(users.id, owner.user.id));
    expect((await call('DELETE', '/me/hwid', undefined, owner.token)).status).toBe(200);
    expect(
      (await call('POST', '/bot/sessions', { accessKey, hwid: newHwid(), version: '1.2.3' })).status,
    ).toBe(201);
  });

  it('refuses a PC bound to another user', async () => {
    const first = await createBotOwner(server);
    const second = await server.createUser({ permissions: ['can_useTreasure'] });
    const answer = await call('POST', '/bot/sessions', {
      accessKey: await botKeyOf(second.token),
      hwid: first.hwid,
      version: '1.0.0',
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'HWID_TAKEN' });
  });

  it('needs one of the bot permissions', async () => {
    const none = await server.createUser();
    const refused = await call('POST', '/bot/sessions', {
      accessKey: await botKeyOf(none.token),
      hwid: newHwid(),
      version: '1.0.0',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'BOT_PERMISSION_REQUIRED' });
    const treasureOnly = await server.createUser({ permissions: ['can_useTreasure'] });
    const allowed = await call('POST', '/bot/sessions', {
      accessKey: await botKeyOf(treasureOnly.token),
      hwid: newHwid(),
      version: '1.0.0',
    });
    expect(allowed.status).toBe(201);
  });

  it('refuses a wrong key, a banned or unactivated account, an outdated bot and bad input', async () => {
    const wrong = await call('POST', '/bot/sessions', {
      accessKey: 'bk_0000000000000000000000',
      hwid: newHwid(),
      version: '1.0.0',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'BOT_KEY_INVALID' });

    const banned = await server.createUser({ permissions: ['can_useGathering'] });
    const bannedKey = await botKeyOf(banned.token);
    await server.ctx.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, banned.user.id));
    const bannedAnswer = await call('POST', '/bot/sessions', {
      accessKey: bannedKey,
      hwid: newHwid(),
      version: '1.0.0',
    });
    expect(bannedAnswer.body).toMatchObject({ code: 'ACCOUNT_BANNED' });

    const sleeper = await server.createUser({ activated: false, permissions: ['can_useGathering'] });
    const sleeperKey = await rotateBotKey(server.ctx, sleeper.user.id);
    const sleeperAnswer = await call('POST', '/bot/sessions', {
      accessKey: sleeperKey,
      hwid: newHwid(),
      version: '1.0.0',
    });
    expect(sleeperAnswer.body).toMatchObject({ code: 'ACCOUNT_NOT_ACTIVATED' });

    const owner = await server.createUser({ permissions: ['can_useGathering'] });
    const accessKey = await botKeyOf(owner.token);
    await updateSettings(server.ctx, {
      patch: { minBotVersion: '2.1.0' },
      actor: { id: null, username: 'test', ip: null },
    });
    try {
      const outdated = await call('POST', '/bot/sessions', { accessKey, hwid: newHwid(), version: '2.0.9' });
      expect(outdated.status).toBe(426);
      expect(outdated.body).toMatchObject({ code: 'BOT_VERSION_OUTDATED' });
      expect(
        (await call('POST', '/bot/sessions', { accessKey, hwid: newHwid(), version: '2.10.0' })).status,
      ).toBe(201);
    } finally {
      await updateSettings(server.ctx, {
        patch: { minBotVersion: '0.0.0' },
        actor: { id: null, username: 'test', ip: null },
      });
    }
    const invalid = await call('POST', '/bot/sessions', {
      accessKey,
      hwid: 'x',
      version: 'latest',
      extra: 1,
    });
    expect(invalid.status).toBe(400);
  });

  it('rotating the access key ends the sessions made with it', async () => {
    const owner = await createBotOwner(server);
    expect((await call('POST', '/me/bot-key', undefined, owner.token)).status).toBe(200);
    const { socket, ack } = await connectOwnerBot(server, owner);
    sockets.push(socket);
    expect(ack).toMatchObject({ ok: false, code: 'BOT_SESSION_INVALID' });
    const old = await call('POST', '/bot/sessions', {
      accessKey: owner.accessKey,
      hwid: owner.hwid,
      version: '1.0.0',
    });
    expect(old.body).toMatchObject({ code: 'BOT_KEY_INVALID' });
  });
});

describe('GET /api/me/bot and history', () => {
  it('answers the live state and per-minute aggregates of stat deltas, buffered rather than written per report', async () => {
    const owner = await createBotOwner(server, { accounts: ['Miner', 'Hunter'] });
    const empty = await call<{ data: { hwid: string; state: BotState | null; history: BotHistoryPoint[] } }>(
      'GET',
      '/me/bot',
      undefined,
      owner.token,
    );
    expect(empty.body.data).toEqual({ hwid: owner.hwid, state: null, history: [] });

    const { socket } = await connectOwnerBot(server, owner);
    sockets.push(socket);
    for (let i = 0; i <= 5; i += 1) {
      socket.emit('bot_update', {
        accounts: [
          account('Miner', { stats: { gathered: 10 * i, treasures: 0, kamas: 100 * i, xp: 1000 * i } }),
          account('Hunter', { stats: { gathered: 0, treasures: i, kamas: 0, xp: 0 } }),
        ],
      });
    }
    const sum = (points: BotHistoryPoint[], name: string, key: 'gathered' | 'treasures' | 'kamas' | 'xp') =>
      points.filter((p) => p.account === name).reduce((total, p) => total + p[key], 0);
    const liveBot = () =>
      call<{ data: { state: BotState; history: BotHistoryPoint[] } }>(
        'GET',
        '/me/bot',
        undefined,
        owner.token,
      );
    // The answer merges what is still buffered: every report has arrived once it shows all of them.
    await vi.waitFor(async () =>
      expect(sum((await liveBot()).body.data.history, 'Miner', 'gathered')).toBe(50),
    );
    const live = await liveBot();
    expect(live.body.data.state).toMatchObject({ hwid: owner.hwid, online: true });
    const rowsBefore = await server.ctx.db
      .select()
      .from(botActivityMinutes)
      .where(eq(botActivityMinutes.hwid, owner.hwid));
    expect(rowsBefore).toHaveLength(0); // buffered, not written per update

    // A second batch adds to the same minutes (written at shutdown: bot-history.shutdown.test.ts).
    socket.emit('bot_update', {
      accounts: [account('Miner', { stats: { gathered: 60, treasures: 0, kamas: 600, xp: 6000 } })],
    });
    await vi.waitFor(async () =>
      expect(sum((await liveBot()).body.data.history, 'Miner', 'gathered')).toBe(60),
    );
    const after = await liveBot();
    expect(sum(after.body.data.history, 'Miner', 'gathered')).toBe(60);
    expect(sum(after.body.data.history, 'Hunter', 'treasures')).toBe(5);

    // The minute ends: the next flush writes it, and the page counts it once, written now.
    clock.moveBy(1_000);
    await vi.waitFor(async () => {
      const written = await server.ctx.db
        .select()
        .from(botActivityMinutes)
        .where(eq(botActivityMinutes.hwid, owner.hwid));
      expect(written.map((row) => [row.account, row.gathered, row.treasures])).toEqual(
        expect.arrayContaining([
          ['Miner', 60, 0],
          ['Hunter', 0, 5],
        ]),
      );
    });
    const written = await liveBot();
    expect(sum(written.body.data.history, 'Miner', 'gathered')).toBe(60);
    expect(sum(written.body.data.history, 'Hunter', 'treasures')).toBe(5);
  });

  it('answers no hwid for a user without a bound PC, 401 without a session', async () => {
    const user = await server.createUser();
    const answer = await call('GET', '/me/bot', undefined, user.token);
    expect(answer.body).toEqual({ data: { hwid: null, state: null, history: [] } });
    expect((await call('GET', '/me/bot')).status).toBe(401);
  });

  it('only accepts whitelisted accounts in history', async () => {
    const owner = await createBotOwner(server, { accounts: ['Allowed'] });
    const { socket } = await connectOwnerBot(server, owner);
    sockets.push(socket);
    // Each report carries the whitelisted account and a stranger: history must keep only the first.
    const stats = (gathered: number) => ({ gathered, treasures: 0, kamas: 0, xp: 0 });
    for (const gathered of [0, 5]) {
      socket.emit('bot_update', {
        accounts: [
          account('Allowed', { stats: stats(gathered) }),
          account('Stranger', { stats: stats(gathered * 2) }),
        ],
      });
    }
    // Processed once the whitelisted account's gain is recorded (no fixed wait).
    const history = await vi.waitFor(async () => {
      const answer = await call<{ data: { history: BotHistoryPoint[] } }>(
        'GET',
        '/me/bot',
        undefined,
        owner.token,
      );
      const points = answer.body.data.history;
      expect(points.reduce((sum, point) => sum + point.gathered, 0)).toBe(5);
      return points;
    });
    expect(new Set(history.map((point) => point.account))).toEqual(new Set(['Allowed']));
  });
});
