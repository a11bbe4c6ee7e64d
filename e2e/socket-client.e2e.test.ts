import type { BotState } from '@bot/contracts';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../apps/server/test/harness.ts';
import { type LiveEvent, watchBot } from '../apps/web/src/lib/socket/bot-cache.ts';
import { type LiveFleet, watchFleet } from '../apps/web/src/lib/socket/fleet-cache.ts';
import { liveKeys } from '../apps/web/src/lib/socket/live-keys.ts';
import { createSocketClient, type SocketClient } from '../apps/web/src/lib/socket/socket-client.ts';
import { type LiveBot, startLiveBot } from './live-helpers.ts';

/**
 * The web app's socket client (apps/web/src/lib/socket) against the real server and hub: real
 * sessions, a real bot agent reporting, the hub's own refusals and reconnections.
 */
let server: TestServer;
let staff: TestUser;
let bot: LiveBot;
let clients: SocketClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ realtime: { adminFlushMs: 100 } });
  staff = await server.createUser({ permissions: ['can_manageMap'] });
  bot = await startLiveBot(server);
});
afterEach(() => {
  for (const client of clients) client.disconnectAll();
  clients = [];
});
afterAll(async () => {
  await bot?.stop();
  await server?.close();
});

function makeClient(token: string) {
  const client = createSocketClient({
    getUrl: () => server.url,
    getToken: () => token,
    log: () => undefined,
  });
  clients.push(client);
  return client;
}

/** The authenticated browser sockets the hub lists (what the users-online page shows). */
async function viewers(type: 'client' | 'admin', hwid?: string) {
  return (await server.ctx.live.connectedViewers()).filter(
    (viewer) => viewer.type === type && (hwid === undefined || viewer.hwid === hwid),
  );
}

describe('watching one bot', () => {
  it('authenticates as client with the hwid in the query and hands the bot’s updates over', async () => {
    const client = makeClient(bot.owner.token);
    const updates: BotState[] = [];
    const states: string[] = [];
    const socket = client.connectToHwid(bot.hwid, {
      onUpdate: (s) => updates.push(s),
      onConnectionChange: (s) => states.push(s),
    });
    await vi.waitFor(() => expect(states).toContain('connected'));
    expect(await viewers('client', bot.hwid)).toHaveLength(1);
    expect(socket?.io.opts.query).toEqual({ hwid: bot.hwid });
    expect(socket?.io.engine.transport.name).toBe('websocket');
    // The current state at once, then the next report.
    await vi.waitFor(() => expect(updates.length).toBeGreaterThanOrEqual(1));
    const sent = bot.tick();
    await vi.waitFor(() =>
      expect(updates.some((s) => s.accounts[0]?.position.mapId === sent.accounts[0]?.position.mapId)).toBe(
        true,
      ),
    );
  });

  it('closes the previous socket of the same hwid first and keeps the others', async () => {
    const other = await startLiveBot(server);
    try {
      const client = makeClient(staff.token);
      const first: BotState[] = [];
      client.connectToHwid(bot.hwid, { onUpdate: (s) => first.push(s) });
      client.connectToHwid(other.hwid, { onUpdate: () => undefined });
      await vi.waitFor(async () => expect((await viewers('client')).length).toBe(2));
      const second: BotState[] = [];
      client.connectToHwid(bot.hwid, { onUpdate: (s) => second.push(s) });
      await vi.waitFor(async () => {
        expect(second.length).toBeGreaterThanOrEqual(1);
        expect(await viewers('client', bot.hwid)).toHaveLength(1); // the first one has left
      });
      expect(await viewers('client', other.hwid)).toHaveLength(1);
      expect(client.openHwids().sort()).toEqual([bot.hwid, other.hwid].sort());
      const before = first.length;
      bot.tick();
      await vi.waitFor(() => expect(second.length).toBeGreaterThanOrEqual(2));
      expect(first.length).toBe(before); // the replaced socket hears nothing more

      client.disconnectHwid(bot.hwid);
      await vi.waitFor(async () => expect(await viewers('client', bot.hwid)).toHaveLength(0));
      expect(client.openHwids()).toEqual([other.hwid]);
      client.connectAsAdmin({ onSnapshot: () => undefined, onUpdate: () => undefined });
      await vi.waitFor(async () => expect(await viewers('admin')).toHaveLength(1));
      client.disconnectAll();
      await vi.waitFor(async () =>
        expect((await viewers('client')).length + (await viewers('admin')).length).toBe(0),
      );
      expect(client.hasAdminSocket()).toBe(false);
    } finally {
      await other.stop();
    }
  });

  it('stays "refused" after the hub refuses it, and does not try again', async () => {
    const client = makeClient('jeton-inconnu');
    const states: string[] = [];
    const errors: { code: string }[] = [];
    const socket = client.connectToHwid(bot.hwid, {
      onUpdate: () => undefined,
      onConnectionChange: (s) => states.push(s),
      onAuthError: (body) => errors.push(body),
    });
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]?.code).toBe('UNAUTHORIZED');
    await vi.waitFor(() => expect(socket?.connected).toBe(false));
    expect(states.at(-1)).toBe('refused');
    expect(socket?.active).toBe(false); // no reconnection scheduled
  });

  it('authenticates again after a lost connection', async () => {
    const client = makeClient(bot.owner.token);
    const states: string[] = [];
    const socket = client.connectToHwid(bot.hwid, {
      onUpdate: () => undefined,
      onConnectionChange: (s) => states.push(s),
    });
    await vi.waitFor(async () => expect(await viewers('client', bot.hwid)).toHaveLength(1));
    const [first] = await viewers('client', bot.hwid);
    socket?.io.engine.close(); // the transport drops (not a refusal): the client comes back by itself
    await vi.waitFor(
      async () => {
        const again = await viewers('client', bot.hwid);
        expect(again).toHaveLength(1);
        expect(again[0]?.socketId).not.toBe(first?.socketId);
        expect(states.at(-1)).toBe('connected');
      },
      { timeout: 10_000 },
    );
    expect(states).toContain('reconnecting');
  });
});

describe('watching the fleet', () => {
  it('authenticates as admin without a hwid; a new admin socket replaces the old one', async () => {
    const client = makeClient(staff.token);
    const firstSnapshots: BotState[][] = [];
    const adminSocket = client.connectAsAdmin({
      onSnapshot: (s) => firstSnapshots.push(s),
      onUpdate: () => undefined,
    });
    await vi.waitFor(() => expect(firstSnapshots).toHaveLength(1));
    expect(adminSocket?.io.opts.query).toBeUndefined();

    const snapshots: BotState[][] = [];
    const batches: BotState[][] = [];
    const counts: number[] = [];
    client.connectAsAdmin({
      onSnapshot: (s) => snapshots.push(s),
      onUpdate: (s) => batches.push(s),
      onOnlineCount: (c) => counts.push(c),
    });
    await vi.waitFor(() => expect(snapshots).toHaveLength(1));
    await vi.waitFor(async () => expect(await viewers('admin')).toHaveLength(1));
    expect(snapshots[0]?.map((s) => s.hwid)).toContain(bot.hwid);
    await vi.waitFor(() => expect(counts.length).toBeGreaterThanOrEqual(1));
    bot.tick();
    await vi.waitFor(() => expect(batches.flat().some((s) => s.hwid === bot.hwid)).toBe(true));
    expect(firstSnapshots).toHaveLength(1); // the replaced socket got nothing more
  });
});

describe('query cache updates', () => {
  it('watchBot writes the state, the connection state and the event log', async () => {
    const watched = await startLiveBot(server);
    const client = makeClient(watched.owner.token);
    const queryClient = new QueryClient();
    const stop = watchBot(queryClient, client, watched.hwid);
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(liveKeys.botConnection(watched.hwid))).toBe('connected'),
    );
    await vi.waitFor(() => expect(queryClient.getQueryData(liveKeys.bot(watched.hwid))).toBeDefined());
    await watched.stop(); // the bot goes away: an "offline" event
    await vi.waitFor(() => {
      const events = queryClient.getQueryData<LiveEvent[]>(liveKeys.botEvents(watched.hwid)) ?? [];
      expect(events.map((event) => event.kind)).toContain('offline');
    });
    expect(queryClient.getQueryData<BotState>(liveKeys.bot(watched.hwid))?.online).toBe(false);
    stop();
    expect(queryClient.getQueryData(liveKeys.botConnection(watched.hwid))).toBe('disconnected');
  });

  it('watchFleet keeps the fleet in the query cache: snapshot, batches, departures, count', async () => {
    const leaving = await startLiveBot(server);
    const client = makeClient(staff.token);
    const queryClient = new QueryClient();
    const stop = watchFleet(queryClient, client);
    const fleet = () => queryClient.getQueryData<LiveFleet>(liveKeys.fleet);
    await vi.waitFor(() => expect(fleet()?.bots.has(leaving.hwid)).toBe(true));
    const count = fleet()?.onlineCount ?? 0;
    await leaving.stop();
    await vi.waitFor(() => {
      expect(fleet()?.bots.has(leaving.hwid)).toBe(false);
      expect(fleet()?.onlineCount).toBe(count - 1);
    });
    expect(fleet()?.bots.has(bot.hwid)).toBe(true);
    stop();
    expect(client.hasAdminSocket()).toBe(false);
  });
});
