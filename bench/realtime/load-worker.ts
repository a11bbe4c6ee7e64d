/**
 * A load process: connects its share of bots (1 update/s each) and owner watchers, or the admin
 * watcher, and measures what arrives. Separate processes keep client CPU out of the target's.
 */
import { reconnectionDelay } from '@bot/bot-agent';
import { type MapViewport, SOCKET_CLIENT_OPTIONS } from '@bot/contracts';
import { io, type Socket } from 'socket.io-client';
import {
  type BenchBot,
  preciseNow,
  stampOf,
  timeOfStamp,
  type WorkerCommand,
  type WorkerMessage,
  type WorkerResult,
} from './protocol.ts';

const send = (message: WorkerMessage) => process.send?.(message);
const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];
let window = { from: Number.POSITIVE_INFINITY, to: Number.NEGATIVE_INFINITY };
const result: WorkerResult = {
  sent: 0,
  sentWatched: 0,
  ownerReceived: 0,
  ownerLatencies: [],
  adminStates: 0,
  adminMessages: 0,
  adminLatencies: [],
  adminBytes: [],
  adminCells: [],
  disconnects: 0,
  dropped: 0,
  refusals: 0,
  reasons: {},
};
const countReason = (reason: string) => {
  result.reasons[reason] = (result.reasons[reason] ?? 0) + 1;
};
/** A report's answer (`--acks`): a refusal counted by its code. */
const countRefusal = (answer: { ok: boolean; code?: string }) => {
  if (!answer.ok) countReason(`refused: ${answer.code}`);
};
const inWindow = (time: number | undefined): time is number =>
  time !== undefined && time >= window.from && time <= window.to;

let reconnects = false;
let arrivalSpreadMs = 0;
let keepTrying = false;
/** Bot sockets authenticated right now (reconnect mode: they leave on disconnect, return on re-authentication). */
const authenticatedBots = new Set<Socket>();
/** Sockets taken by the target (bots authenticated, watchers following): closing one drops it. */
const taken = new WeakSet<Socket>();

/** A bot's socket, or a browser's (a watcher): browsers send their page's Origin, bots none. */
function open(url: string, client: 'bot' | 'browser' = 'bot'): Socket {
  // Reconnecting like the SDK, except after a node loss in bench/cluster (faster, to time the move).
  const retries =
    arrivalSpreadMs > 0 || keepTrying
      ? SOCKET_CLIENT_OPTIONS
      : { reconnectionDelay: 500, reconnectionDelayMax: 2_000 };
  const socket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: reconnects,
    reconnectionDelay: retries.reconnectionDelay,
    reconnectionDelayMax: retries.reconnectionDelayMax,
    forceNew: true,
    ...(client === 'browser' ? { extraHeaders: { origin: url } } : {}),
  });
  socket.on('disconnect', (reason) => {
    result.disconnects += 1;
    if (taken.has(socket)) result.dropped += 1;
    taken.delete(socket);
    countReason(reason);
  });
  socket.on('auth_error', (body: { code: string }) => {
    result.refusals += 1;
    countReason(body.code);
  });
  sockets.push(socket);
  return socket;
}

/**
 * Authenticates a socket: true once accepted, false when refused or after 60 s. Reconnecting sockets
 * retry like the SDK until one connection is accepted: they authenticate on every connection, and
 * one the server closed (a refusal, a timeout under load), which Socket.IO's manager does not reopen,
 * is opened again after the SDK's reconnection delay. (Owner pages are opened the same way: the web
 * app gives up on a refused socket until the page reloads, so in a storm their refusals are counted
 * in `refusals`, and their retries stand for the reload.)
 */
function authenticate(socket: Socket, payload: Record<string, unknown>): Promise<boolean> {
  const retries = socket.io.opts.reconnection === true;
  return new Promise((resolve) => {
    let isSettled = false;
    let attempt = 0;
    const settle = (ok: boolean) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      socket.off('connect', onConnect);
      resolve(ok);
    };
    const timer = setTimeout(() => settle(false), keepTrying ? 2 ** 31 - 1 : 60_000);
    const onConnect = () => {
      socket.emit('authenticate', payload, (answer: { ok: boolean }) => {
        if (answer.ok) taken.add(socket);
        if (answer.ok || !retries) settle(answer.ok);
      });
    };
    socket.on('connect', onConnect);
    socket.on('connect_error', (error) => {
      countReason(`connect_error: ${error.message}`);
      if (!retries) settle(false);
    });
    socket.on('disconnect', (reason) => {
      if (retries && !isSettled && reason === 'io server disconnect')
        setTimeout(() => {
          if (!isSettled) socket.connect();
        }, reconnectionDelay(attempt++));
    });
  });
}

/** Where a bot's accounts stand: spread over the whole world, the same for a bot in every run. */
function placeOf(hwid: string): { x: number; y: number } {
  let hash = 2166136261;
  for (let i = 0; i < hwid.length; i++) hash = Math.imul(hash ^ hwid.charCodeAt(i), 16777619);
  const unsigned = hash >>> 0;
  return { x: (unsigned % 1999) - 999, y: (Math.floor(unsigned / 1999) % 1999) - 999 };
}

function report(bot: BenchBot, level: number, sentAt: number): unknown {
  const stamp = stampOf(sentAt);
  const place = placeOf(bot.hwid);
  return {
    accounts: bot.accounts.map((name, index) => ({
      name,
      character: `${name}-c`,
      level,
      status: 'gathering',
      position: { mapId: 1_000_000 + index, x: place.x + index, y: place.y },
      routeId: null,
      stats: { gathered: level, treasures: 0, kamas: level * 10, xp: level * 100 },
      message: index === 0 ? stamp : null,
    })),
  };
}

/** An admin watcher: the whole fleet, or what a map's viewport shows; counts what arrives. */
function watchFleet(
  url: string,
  token: string,
  viewport: MapViewport | null,
  index: number,
): Promise<boolean> {
  const admin = open(url, 'browser');
  result.adminBytes[index] = 0;
  result.adminCells[index] = 0;
  admin.io.on('open', () => {
    admin.io.engine.on('packet', (packet: { data?: unknown }) => {
      if (inWindow(preciseNow()) && typeof packet.data === 'string')
        result.adminBytes[index] = (result.adminBytes[index] ?? 0) + packet.data.length;
    });
  });
  admin.on('map_cells', () => {
    if (inWindow(preciseNow())) result.adminCells[index] = (result.adminCells[index] ?? 0) + 1;
  });
  admin.on('bot_update', (payload: unknown) => {
    const states = (Array.isArray(payload) ? payload : [payload]) as { accounts: { message: unknown }[] }[];
    const at = preciseNow();
    let counted = false;
    for (const state of states) {
      const sentAt = timeOfStamp(state.accounts[0]?.message);
      if (!inWindow(sentAt)) continue;
      counted = true;
      result.adminStates += 1;
      if (result.adminStates % 10 === 0) result.adminLatencies.push(at - sentAt);
    }
    if (counted) result.adminMessages += 1;
  });
  return authenticate(admin, { type: 'admin', token, ...(viewport ? { viewport } : {}) });
}

async function start(command: Extract<WorkerCommand, { type: 'start' }>): Promise<void> {
  let failed = 0;
  let watchers = 0;
  let bots = 0;
  let admins = 0;
  if (command.adminToken) {
    for (const [index, viewport] of (command.adminViewports ?? [null]).entries()) {
      if (await watchFleet(command.url, command.adminToken, viewport, index)) admins += 1;
      else failed += 1;
    }
  }
  const batch =
    arrivalSpreadMs > 0 ? command.bots.length : Math.max(1, Math.round(command.connectPerSecond / 10));
  for (let i = 0; i < command.bots.length; i += batch) {
    const slice = command.bots.slice(i, i + batch);
    const started = Date.now();
    const connecting = Promise.all(
      slice.map(async (bot) => {
        if (arrivalSpreadMs > 0)
          await new Promise((resolve) => setTimeout(resolve, Math.random() * arrivalSpreadMs));
        let ok = true;
        if (bot.ownerToken) {
          const watcher = open(command.url, 'browser');
          watcher.on('bot_update', (state: { accounts: { message: unknown }[] }) => {
            const sentAt = timeOfStamp(state.accounts?.[0]?.message);
            if (!inWindow(sentAt)) return;
            result.ownerReceived += 1;
            result.ownerLatencies.push(preciseNow() - sentAt);
          });
          ok = await authenticate(watcher, { type: 'client', token: bot.ownerToken, hwid: bot.hwid });
          if (ok) watchers += 1;
        }
        const socket = open(command.url);
        const credentials = { type: 'bot', token: bot.botToken, hwid: bot.hwid };
        const isAuthenticated = await authenticate(socket, credentials);
        if (!isAuthenticated) return false;
        authenticatedBots.add(socket);
        if (reconnects) {
          socket.on('disconnect', () => authenticatedBots.delete(socket));
          socket.io.on('reconnect', () => {
            socket.emit('authenticate', credentials, (answer: { ok: boolean }) => {
              if (answer.ok) authenticatedBots.add(socket);
            });
          });
        }
        bots += 1;
        let level = 1;
        const isWatched = bot.ownerToken !== null;
        const reportEveryMs = command.reportEveryMs ?? 1000;
        const timer = setTimeout(() => {
          timers.push(
            setInterval(() => {
              level += 1;
              const sentAt = preciseNow();
              const payload = report(bot, level, sentAt);
              if (command.acks) socket.emit('bot_update', payload, countRefusal);
              else socket.emit('bot_update', payload);
              if (inWindow(sentAt)) {
                result.sent += 1;
                if (isWatched) result.sentWatched += 1;
              }
            }, reportEveryMs),
          );
        }, Math.random() * reportEveryMs);
        timers.push(timer);
        return ok;
      }),
    );
    // Kept trying, a bot may wait minutes for a place: launch the next ones meanwhile.
    const outcomes = keepTrying ? [] : await connecting;
    failed += outcomes.filter((ok) => !ok).length;
    const elapsed = Date.now() - started;
    if (elapsed < 100) await new Promise((resolve) => setTimeout(resolve, 100 - elapsed));
  }
  send({ type: 'connected', bots, watchers, admins, failed });
}

process.on('message', (command: WorkerCommand) => {
  if (command.type === 'start') {
    reconnects = command.reconnect === true;
    arrivalSpreadMs = command.arrivalSpreadMs ?? 0;
    keepTrying = command.keepTrying === true;
    void start(command);
  }
  if (command.type === 'status') send({ type: 'status', authenticated: authenticatedBots.size });
  if (command.type === 'window') window = { from: command.from, to: command.to };
  if (command.type === 'collect') send({ type: 'result', result });
  if (command.type === 'stop') {
    for (const timer of timers) clearInterval(timer);
    for (const socket of sockets) socket.disconnect();
    setTimeout(() => process.exit(0), 200);
  }
});
