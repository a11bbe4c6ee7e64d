import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type BotState,
  SOCKET_RANDOMIZATION_FACTOR,
  SOCKET_RECONNECTION_DELAY_MAX_MS,
  SOCKET_RECONNECTION_DELAY_MS,
  SOCKET_TIMEOUT_MS,
} from '@bot/contracts';
import { QueryClient } from '@tanstack/react-query';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  applyBatch,
  applyDisconnect,
  applySnapshot,
  diffBotStates,
  type LiveEvent,
  type LiveFleet,
  liveKeys,
  watchBot,
  watchFleet,
} from './live-cache.ts';
import {
  createSocketClient,
  HWID_REQUIRED,
  type SocketClient,
  socketOptions,
  TOKEN_MISSING,
} from './socket-client.ts';

/** A real Socket.IO server on a random port that records what peers send. */
let io: Server;
let url: string;
const seen: { socket: ServerSocket; auth: unknown[] }[] = [];

beforeAll(async () => {
  const http = createServer();
  io = new Server(http, { path: '/socket.io', transports: ['websocket'] });
  io.on('connection', (socket) => {
    const entry = { socket, auth: [] as unknown[] };
    seen.push(entry);
    socket.on('authenticate', (payload) => {
      entry.auth.push(payload);
      if (payload.token === 'refused-token') {
        socket.emit('auth_error', { error: 'Accès refusé.', code: 'FORBIDDEN' });
        socket.disconnect(true);
        return;
      }
      socket.emit('authenticated', { type: payload.type, hwid: payload.hwid });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await io.close();
});

let clients: SocketClient[] = [];
afterEach(() => {
  for (const client of clients) client.disconnectAll();
  clients = [];
  seen.length = 0;
});

function makeClient(token: string | null = 'session-token') {
  const logs: string[] = [];
  const client = createSocketClient({ getUrl: () => url, getToken: () => token, log: (m) => logs.push(m) });
  clients.push(client);
  return { client, logs };
}

async function waitFor<T>(check: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const connectedServerSockets = () => seen.filter((entry) => entry.socket.connected);

function botState(hwid: string, overrides: Partial<BotState> = {}): BotState {
  return {
    hwid,
    owner: { id: 'u1', username: 'alice' },
    online: true,
    version: '1.0.0',
    connectedAt: new Date().toISOString(),
    lastSeenAt: new Date().toISOString(),
    accounts: [
      {
        name: 'acc1',
        character: 'Perso',
        level: 10,
        status: 'gathering',
        position: { mapId: 1, x: 1, y: 2 },
        routeId: null,
        stats: { gathered: 1, treasures: 0, kamas: 5, xp: 10 },
        message: null,
      },
    ],
    ...overrides,
  };
}

describe('socket options', () => {
  it('uses SPEC.md section 9 values, websocket only, no upgrade, path /socket.io', () => {
    const options = socketOptions({ hwid: 'HWID-0001' });
    expect(options).toMatchObject({
      path: '/socket.io',
      transports: ['websocket'],
      upgrade: false,
      reconnection: true,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      timeout: 20000,
      query: { hwid: 'HWID-0001' },
    });
    expect([
      SOCKET_RECONNECTION_DELAY_MS,
      SOCKET_RECONNECTION_DELAY_MAX_MS,
      SOCKET_RANDOMIZATION_FACTOR,
      SOCKET_TIMEOUT_MS,
    ]).toEqual([1000, 5000, 0.5, 20000]);
  });
});

describe('connectToHwid', () => {
  it('logs "HWID requis" and opens nothing without a hwid', async () => {
    const { client, logs } = makeClient();
    expect(client.connectToHwid('', { onUpdate: () => undefined })).toBeUndefined();
    expect(client.connectToHwid(null, { onUpdate: () => undefined })).toBeUndefined();
    expect(logs).toEqual([HWID_REQUIRED, HWID_REQUIRED]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toHaveLength(0);
    expect(client.openHwids()).toEqual([]);
  });

  it('logs "Token manquant" and opens nothing without a token', async () => {
    const { client, logs } = makeClient(null);
    expect(client.connectToHwid('HWID-0001', { onUpdate: () => undefined })).toBeUndefined();
    expect(client.connectAsAdmin({ onSnapshot: () => undefined, onUpdate: () => undefined })).toBeUndefined();
    expect(logs).toEqual([TOKEN_MISSING, TOKEN_MISSING]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toHaveLength(0);
  });

  it('connects over websocket with the hwid in the query, authenticates as client and hands updates over', async () => {
    const { client } = makeClient();
    const updates: BotState[] = [];
    const states: string[] = [];
    client.connectToHwid('HWID-0001', {
      onUpdate: (s) => updates.push(s),
      onConnectionChange: (s) => states.push(s),
    });
    const entry = await waitFor(() => seen.find((e) => e.auth.length > 0));
    expect(entry.socket.handshake.query.hwid).toBe('HWID-0001');
    expect(entry.socket.conn.transport.name).toBe('websocket');
    expect(entry.auth).toEqual([{ token: 'session-token', type: 'client', hwid: 'HWID-0001' }]);
    await waitFor(() => states.includes('connected'));
    entry.socket.emit('bot_update', botState('HWID-0001'));
    await waitFor(() => updates.length === 1);
    expect(updates[0]?.hwid).toBe('HWID-0001');
  });

  it('closes the previous socket of the same hwid first, keeps sockets of other hwids', async () => {
    const { client } = makeClient();
    const first: BotState[] = [];
    client.connectToHwid('HWID-0001', { onUpdate: (s) => first.push(s) });
    client.connectToHwid('HWID-0002', { onUpdate: () => undefined });
    await waitFor(() => connectedServerSockets().length === 2);
    const second: BotState[] = [];
    client.connectToHwid('HWID-0001', { onUpdate: (s) => second.push(s) });
    await waitFor(() => seen.length === 3 && connectedServerSockets().length === 2);
    const live = connectedServerSockets()
      .map((e) => e.socket.handshake.query.hwid)
      .sort();
    expect(live).toEqual(['HWID-0001', 'HWID-0002']);
    expect(client.openHwids().sort()).toEqual(['HWID-0001', 'HWID-0002']);
    io.emit('bot_update', botState('HWID-0001'));
    await waitFor(() => second.length >= 1);
    expect(first).toHaveLength(0);
  });

  it('disconnectHwid closes only that socket; disconnectAll closes every socket', async () => {
    const { client } = makeClient();
    client.connectToHwid('HWID-0001', { onUpdate: () => undefined });
    client.connectToHwid('HWID-0002', { onUpdate: () => undefined });
    client.connectAsAdmin({ onSnapshot: () => undefined, onUpdate: () => undefined });
    await waitFor(() => connectedServerSockets().length === 3);
    client.disconnectHwid('HWID-0001');
    await waitFor(() => connectedServerSockets().length === 2);
    expect(client.openHwids()).toEqual(['HWID-0002']);
    client.disconnectAll();
    await waitFor(() => connectedServerSockets().length === 0);
    expect(client.openHwids()).toEqual([]);
    expect(client.hasAdminSocket()).toBe(false);
  });

  it('stays "refused" after auth_error and does not reconnect', async () => {
    const { client } = makeClient('refused-token');
    const states: string[] = [];
    const errors: { code: string }[] = [];
    client.connectToHwid('HWID-0001', {
      onUpdate: () => undefined,
      onConnectionChange: (s) => states.push(s),
      onAuthError: (body) => errors.push(body),
    });
    await waitFor(() => errors.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(errors[0]?.code).toBe('FORBIDDEN');
    expect(states.at(-1)).toBe('refused');
    expect(seen).toHaveLength(1); // a server-side close is not retried
  });

  it('authenticates again after a reconnection', async () => {
    const { client } = makeClient();
    client.connectToHwid('HWID-0001', { onUpdate: () => undefined });
    const entry = await waitFor(() => seen.find((e) => e.auth.length > 0));
    entry.socket.conn.close(); // transport lost, not a server-side disconnect: the client reconnects
    const again = await waitFor(() => seen.find((e) => e !== entry && e.auth.length > 0), 10_000);
    expect(again.auth).toEqual([{ token: 'session-token', type: 'client', hwid: 'HWID-0001' }]);
  });
});

describe('connectAsAdmin', () => {
  it('authenticates as admin without a hwid query and a new admin socket replaces the old one', async () => {
    const { client } = makeClient();
    const firstSnapshots: BotState[][] = [];
    client.connectAsAdmin({ onSnapshot: (s) => firstSnapshots.push(s), onUpdate: () => undefined });
    const firstEntry = await waitFor(() => seen.find((e) => e.auth.length > 0));
    expect(firstEntry.auth).toEqual([{ token: 'session-token', type: 'admin' }]);
    expect(firstEntry.socket.handshake.query.hwid).toBeUndefined();

    const snapshots: BotState[][] = [];
    const batches: BotState[][] = [];
    const gone: string[] = [];
    const counts: number[] = [];
    client.connectAsAdmin({
      onSnapshot: (s) => snapshots.push(s),
      onUpdate: (s) => batches.push(s),
      onDisconnect: (h) => gone.push(h),
      onOnlineCount: (c) => counts.push(c),
    });
    await waitFor(() => seen.length === 2 && connectedServerSockets().length === 1 && seen[1]?.auth.length);
    expect(firstEntry.socket.connected).toBe(false);
    const admin = seen[1]?.socket;
    admin?.emit('bot_snapshot', [botState('HWID-0001')]);
    admin?.emit('bot_update', [botState('HWID-0001'), botState('HWID-0002')]);
    admin?.emit('bot_disconnect', 'HWID-0001');
    admin?.emit('online_count', 1);
    await waitFor(() => counts.length === 1);
    expect(snapshots.map((s) => s.length)).toEqual([1]);
    expect(batches.map((s) => s.length)).toEqual([2]);
    expect(gone).toEqual(['HWID-0001']);
    expect(counts).toEqual([1]);
    expect(firstSnapshots).toHaveLength(0);
  });
});

describe('query cache updates', () => {
  it('watchBot writes the state, the connection state and the event log to the query cache', async () => {
    const { client } = makeClient();
    const queryClient = new QueryClient();
    const stop = watchBot(queryClient, client, 'HWID-0001');
    const entry = await waitFor(() => seen.find((e) => e.auth.length > 0));
    await waitFor(() => queryClient.getQueryData(liveKeys.botConnection('HWID-0001')) === 'connected');
    entry.socket.emit('bot_update', botState('HWID-0001'));
    await waitFor(() => queryClient.getQueryData(liveKeys.bot('HWID-0001')));
    const fighting = botState('HWID-0001');
    fighting.accounts[0] = { ...fighting.accounts[0]!, status: 'fighting' };
    entry.socket.emit('bot_update', fighting);
    entry.socket.emit('bot_update', { ...fighting, online: false });
    await waitFor(
      () => (queryClient.getQueryData<LiveEvent[]>(liveKeys.botEvents('HWID-0001')) ?? []).length === 3,
    );
    const events = queryClient.getQueryData<LiveEvent[]>(liveKeys.botEvents('HWID-0001')) ?? [];
    expect(events.map((e) => e.kind)).toEqual(['offline', 'status', 'online']);
    expect(queryClient.getQueryData<BotState>(liveKeys.bot('HWID-0001'))?.online).toBe(false);
    // An update for another hwid on this socket is ignored.
    entry.socket.emit('bot_update', botState('HWID-9999'));
    stop();
    await waitFor(() => connectedServerSockets().length === 0);
    expect(queryClient.getQueryData(liveKeys.bot('HWID-9999'))).toBeUndefined();
    expect(queryClient.getQueryData(liveKeys.botConnection('HWID-0001'))).toBe('disconnected');
  });

  it('watchFleet keeps the fleet in the query cache: snapshot, batches, disconnections, count', async () => {
    const { client } = makeClient();
    const queryClient = new QueryClient();
    const stop = watchFleet(queryClient, client);
    const entry = await waitFor(() => seen.find((e) => e.auth.length > 0));
    entry.socket.emit('bot_snapshot', [botState('A-000001'), botState('B-000001')]);
    entry.socket.emit('bot_update', [botState('C-000001'), botState('A-000001', { online: false })]);
    entry.socket.emit('bot_disconnect', 'B-000001');
    entry.socket.emit('online_count', 1);
    await waitFor(() => queryClient.getQueryData<LiveFleet>(liveKeys.fleet)?.onlineCount === 1);
    const fleet = queryClient.getQueryData<LiveFleet>(liveKeys.fleet);
    expect([...(fleet?.bots.keys() ?? [])]).toEqual(['C-000001']);
    stop();
    expect(client.hasAdminSocket()).toBe(false);
  });
});

describe('fleet and event helpers', () => {
  it('never mutates the previous fleet and names what changed', () => {
    const first = applySnapshot([
      botState('A-000001'),
      botState('B-000001'),
      botState('Z-000001', { online: false }),
    ]);
    expect(first.bots.size).toBe(2);
    const second = applyBatch(first, [botState('C-000001'), botState('A-000001', { online: false })]);
    expect(first.bots.size).toBe(2);
    expect([...second.bots.keys()].sort()).toEqual(['B-000001', 'C-000001']);
    expect(second.changed).toEqual(['C-000001']);
    expect(second.removed).toEqual(['A-000001']);
    const third = applyDisconnect(second, 'B-000001');
    expect(third.removed).toEqual(['B-000001']);
    expect(applyDisconnect(third, 'nope')).toBe(third);
  });

  it('diffBotStates reports connection, status and account changes', () => {
    const a = botState('A-000001');
    expect(diffBotStates(undefined, a).map((e) => e.kind)).toEqual(['online']);
    const b = botState('A-000001', { accounts: [{ ...a.accounts[0]!, status: 'banking' }] });
    expect(diffBotStates(a, b).map((e) => [e.kind, e.status])).toEqual([['status', 'banking']]);
    expect(diffBotStates(b, { ...b, accounts: [] }).map((e) => e.text)).toEqual(['Compte retiré']);
    expect(diffBotStates(b, b)).toEqual([]);
  });
});
