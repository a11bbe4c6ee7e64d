import {
  type BotAccount,
  type ClientToServerEvents,
  type Permission,
  type ServerToClientEvents,
  SOCKET_PATH,
  type SocketAuthenticateAck,
  type SocketAuthenticateInput,
} from '@bot/contracts';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { whitelistEntries } from '../../src/modules/whitelist/index.ts';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../harness.ts';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A real socket.io-client connection, websocket only, no automatic reconnection. */
export function openSocket(
  server: Pick<TestServer, 'url'>,
  options: { hwid?: string; origin?: string; forwardedFor?: string } = {},
): TestSocket {
  const headers = {
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}),
  };
  return io(server.url, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    query: options.hwid ? { hwid: options.hwid } : undefined,
    extraHeaders: Object.keys(headers).length > 0 ? headers : undefined,
  });
}

export function waitFor<T = unknown>(
  socket: TestSocket,
  event: keyof ServerToClientEvents | 'connect' | 'disconnect' | 'connect_error',
  predicate: (payload: T) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      (socket as Socket).off(event, listener);
      reject(new Error(`timed out waiting for ${event}`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!predicate(payload)) return;
      clearTimeout(timer);
      (socket as Socket).off(event, listener);
      resolve(payload);
    };
    (socket as Socket).on(event, listener);
  });
}

/** Resolves once the socket is closed (at once when it already is). */
export function waitForClose(socket: TestSocket, timeoutMs = 5_000): Promise<unknown> {
  if (!socket.connected) return Promise.resolve();
  return waitFor(socket, 'disconnect', () => true, timeoutMs);
}

/** Collects every payload of an event until read. */
export function collect<T = unknown>(socket: TestSocket, event: keyof ServerToClientEvents): T[] {
  const received: T[] = [];
  (socket as Socket).on(event, (payload: T) => received.push(payload));
  return received;
}

export async function connectAndAuthenticate(
  server: Pick<TestServer, 'url'>,
  payload: SocketAuthenticateInput,
  options: { hwid?: string } = {},
): Promise<{ socket: TestSocket; ack: SocketAuthenticateAck }> {
  const socket = openSocket(server, { hwid: options.hwid ?? ('hwid' in payload ? payload.hwid : undefined) });
  await waitFor(socket, 'connect');
  const ack = await socket.timeout(5_000).emitWithAck('authenticate', payload);
  return { socket, ack };
}

/** The bot agent of a bot owner (`createBotOwner`), connected and authenticated with its session. */
export function connectOwnerBot(
  server: Pick<TestServer, 'url'>,
  owner: { botToken: string; hwid: string },
): Promise<{ socket: TestSocket; ack: SocketAuthenticateAck }> {
  return connectAndAuthenticate(server, { type: 'bot', token: owner.botToken, hwid: owner.hwid });
}

export function newHwid(): string {
  return `HW-${newId().replaceAll('-', '').slice(-20)}`;
}

/** Whitelists game accounts for a user (test setup; the whitelist domain owns the real flow). */
export async function whitelist(server: TestServer, userId: string, names: string[]): Promise<void> {
  for (const name of names) {
    await server.ctx.db.insert(whitelistEntries).values({ id: newId(), userId, name });
  }
}

/** A user with both bot permissions, whitelisted accounts and an open bot session for a fresh hwid. */
export async function createBotOwner(
  server: TestServer,
  options: { accounts?: string[]; version?: string; permissions?: Permission[] } = {},
): Promise<TestUser & { hwid: string; accessKey: string; botToken: string; accounts: string[] }> {
  const call = apiClient(server);
  const owner = await server.createUser({
    permissions: options.permissions ?? ['can_useGathering', 'can_useTreasure'],
  });
  const accounts = options.accounts ?? [`acc-${newId().slice(-8)}`];
  await whitelist(server, owner.user.id, accounts);
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  const hwid = newHwid();
  const session = await call<{ token: string }>('POST', '/bot/sessions', {
    accessKey: key.body.data.accessKey,
    hwid,
    version: options.version ?? '1.0.0',
  });
  if (session.status !== 201) throw new Error(`bot session refused: ${JSON.stringify(session.body)}`);
  return { ...owner, hwid, accessKey: key.body.data.accessKey, botToken: session.body.token, accounts };
}

export function account(name: string, overrides: Partial<BotAccount> = {}): BotAccount {
  return {
    name,
    character: `${name}-char`,
    level: 50,
    status: 'gathering',
    position: { mapId: 1, x: 3, y: -4 },
    routeId: null,
    stats: { gathered: 0, treasures: 0, kamas: 0, xp: 0 },
    message: null,
    ...overrides,
  };
}

/** Resolves once a watcher of the bot sees one of its accounts in `status` (a report went through the hub). */
export function statusReported(watcher: TestSocket, status: string): Promise<unknown> {
  return waitFor(watcher, 'bot_update', (state: { accounts: { status: string }[] }) =>
    state.accounts.some((entry) => entry.status === status),
  );
}

/**
 * One server for a realtime suite, with short timeouts and small limits so that refusals happen
 * within a test; every socket given to `track` (or pushed to `sockets`) is closed with it.
 */
export function realtimeSuite(onStarted: (server: TestServer) => void) {
  const sockets: TestSocket[] = [];
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer({
      realtime: {
        authTimeoutMs: 400,
        offlineTimeoutMs: 2_500,
        adminFlushMs: 100,
        historyFlushMs: 60_000,
        maxMessageBytes: 4 * 1024,
        botUpdatesPerSecond: 4,
        floodMessagesPer10s: 40,
      },
    });
    onStarted(server);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server?.close();
  });
  const track = <T extends { socket: TestSocket }>(value: T): T => {
    sockets.push(value.socket);
    return value;
  };
  const connectBot = async (owner: { botToken: string; hwid: string }) => {
    if (!server) throw new Error('the suite’s server is not started');
    return track(await connectOwnerBot(server, owner));
  };
  return { sockets, track, connectBot };
}
