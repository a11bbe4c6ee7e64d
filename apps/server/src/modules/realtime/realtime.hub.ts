import type { IncomingMessage } from 'node:http';
import {
  BOT_STATUSES,
  type BotAccount,
  type BotState,
  type BotStatus,
  botReportSchema,
  type ClientToServerEvents,
  ERRORS,
  type ErrorCode,
  type ServerToClientEvents,
  SOCKET_EVENTS,
  SOCKET_PATH,
  type SocketAuthenticateInput,
  socketAuthenticateInput,
} from '@bot/contracts';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import { repeatInBackground, runInBackground } from '../../core/background.ts';
import { clientAddressOf, trustProxyRule } from '../../core/client-address.ts';
import type { AppContext } from '../../core/context.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import {
  findUsersWithGrantsExpiredBetween,
  getUserPermissions,
  hasPermissions,
} from '../access/access.service.ts';
import { findSessionByToken } from '../auth/sessions.service.ts';
import { ActivityRecorder } from '../bots/bots.history.ts';
import {
  canRunBot,
  findAllowedAccounts,
  findBotSessionByToken,
  revokeBotSessions,
} from '../bots/bots.service.ts';
import { getSettings, toPublicSettings } from '../settings/settings.service.ts';
import { findUserById } from '../users/users.service.ts';
import { type BotStateStore, InMemoryBotStateStore } from './bot-state-store.ts';
import { admitHandshakes } from './realtime.admission.ts';
import { createRealtimeMetrics, type RealtimeMetrics } from './realtime.metrics.ts';
import { rooms } from './rooms.ts';

type PeerKind = 'client' | 'admin' | 'bot';

/** What the hub remembers about each socket (Socket.IO's `socket.data`). */
interface SocketData {
  kind?: PeerKind;
  userId?: string;
  username?: string;
  sessionId?: string;
  /** When the web or bot session behind the socket expires (ms since epoch). */
  sessionExpiresAt?: number;
  hwid?: string;
  ip: string;
  queryHwid: string | undefined;
  connectedAt: string;
  /** Flood guard: messages in the current 10 s window. */
  windowStartedAt: number;
  windowCount: number;
  /** Throttle: bot updates allowed right now (token bucket). */
  updateTokens: number;
  tokensAt: number;
  dropped: number;
}

type IncomingEvents = { [K in keyof ClientToServerEvents]: (payload: unknown, ack?: unknown) => void };
type HubServer = Server<IncomingEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type HubSocket = Socket<IncomingEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** One connected bot agent on this node. */
interface BotConnection {
  socket: HubSocket;
  sessionId: string;
  userId: string;
  hwid: string;
  state: BotState;
  lastSeenAt: number;
  allowedAccounts: Set<string>;
}

/** A browser socket as presence lists show it. */
export interface ConnectedViewer {
  socketId: string;
  userId: string;
  username: string;
  type: 'client' | 'admin';
  hwid: string | null;
  ip: string;
  connectedAt: string;
}

const FLOOD_WINDOW_MS = 10_000;
/** Longest our own checks of an `authenticate` may take before the socket is dropped. */
const VERIFICATION_TIMEOUT_MS = 120_000;
/** Authentications checked at once (each costs a few SQL reads). */
const MAX_CONCURRENT_AUTHENTICATIONS = 4;
/** States per admin `bot_update` message. */
const ADMIN_BATCH_SLICE = 500;

function errorBody(code: ErrorCode, message?: string): { error: string; code: ErrorCode } {
  return { error: message ?? ERRORS[code].message, code };
}

/**
 * The Socket.IO hub of DESIGN.md section 6: authenticates browsers and bot agents, keeps the
 * latest state of every online bot, feeds owners at once and staff in batches, records activity.
 */
export class RealtimeHub {
  readonly io: HubServer;
  readonly store: BotStateStore;
  readonly recorder: ActivityRecorder;
  private readonly bots = new Map<string, BotConnection>();
  private readonly pendingAdmin = new Map<string, BotState>();
  private isCountDirty = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribers: (() => void)[] = [];
  private isClosed = false;
  /** Grants that expired before this instant were already re-checked. */
  private grantsCheckedUntil = Date.now();
  private authenticating = 0;
  private readonly authenticationQueue: (() => void)[] = [];
  /** Operational counters (refusals by code, bots dropped for silence), for metrics and benchmarks. */
  readonly counters = {
    refused: {} as Record<string, number>,
    silentBots: 0,
    droppedReports: 0,
    invalidReports: 0,
  };
  private readonly isClustered: boolean;
  private readonly metrics: RealtimeMetrics;

  constructor(
    private readonly ctx: AppContext,
    app: FastifyInstance,
    store: BotStateStore = new InMemoryBotStateStore(),
  ) {
    const { realtime, publicUrl } = ctx.config;
    this.store = store;
    this.metrics = createRealtimeMetrics(ctx.metrics.registry, {
      socketKinds: () => [...this.io.sockets.sockets.values()].map((socket) => socket.data.kind),
      countOnline: () => this.store.count(),
    });
    this.isClustered = ctx.config.redisUrl !== undefined;
    this.recorder = new ActivityRecorder(ctx);
    const allowedOrigin = new URL(publicUrl).origin;
    const trustProxy = trustProxyRule(ctx.config.trustProxy);
    this.io = new Server<IncomingEvents, ServerToClientEvents, Record<string, never>, SocketData>(
      app.server,
      {
        path: SOCKET_PATH,
        transports: ['websocket'],
        allowUpgrades: false,
        serveClient: false,
        maxHttpBufferSize: realtime.maxMessageBytes,
        perMessageDeflate: false,
        // No connection state recovery: it would skip the authentication of a revoked session.
        allowRequest: admitHandshakes({ limiter: ctx.limiter, allowedOrigin, trustProxy }),
      },
    );
    // The raw request holds headers and buffers for the life of the socket: read what we need, drop it.
    this.io.engine.on('connection', (raw: { request: IncomingMessage | null; meta?: unknown }) => {
      const request = raw.request;
      if (!request) return;
      const query = (request as IncomingMessage & { _query?: Record<string, string> })._query ?? {};
      raw.meta = {
        queryHwid: typeof query.hwid === 'string' ? query.hwid : undefined,
        ip: clientAddressOf(request, trustProxy),
      };
      raw.request = null;
    });
    this.io.on('connection', (socket: HubSocket) => this.onConnection(socket));

    const { log } = ctx;
    const sweepEveryMs = Math.min(1000, Math.max(50, (realtime.offlineTimeoutMs ?? 3000) / 3));
    this.timers.push(
      repeatInBackground(log, 'admin feed flush', realtime.adminFlushMs, () => this.flushAdminFeed()),
      repeatInBackground(log, 'silent bot sweep', sweepEveryMs, () => this.sweepSilentBots()),
      repeatInBackground(log, 'bot history flush', realtime.historyFlushMs, () =>
        this.recorder.flush({ all: false }),
      ),
      repeatInBackground(log, 'session expiry sweep', realtime.expirySweepMs, () => this.sweepExpired()),
    );
    this.subscribeToDomainEvents();
  }

  // ---- connection and authentication -------------------------------------------------------

  private onConnection(socket: HubSocket): void {
    const meta = (socket.conn as unknown as { meta?: { queryHwid?: string; ip: string } }).meta;
    const now = Date.now();
    socket.data = {
      ip: meta?.ip ?? socket.handshake.address,
      queryHwid: meta?.queryHwid,
      connectedAt: new Date(now).toISOString(),
      windowStartedAt: now,
      windowCount: 0,
      updateTokens: this.ctx.config.realtime.botUpdatesPerSecond,
      tokensAt: now,
      dropped: 0,
    };
    // Every message counts, whatever its event; counted on the engine socket (cheaper than a
    // Socket.IO middleware, which allocates per packet).
    socket.conn.on('data', () => {
      if (this.isFlooding(socket)) this.refuse(socket, 'SOCKET_FLOOD');
    });
    const armAuthTimer = (delayMs: number) => {
      const timer = setTimeout(() => {
        if (!socket.data.kind) this.refuse(socket, 'AUTH_TIMEOUT');
      }, delayMs);
      timer.unref();
      return timer;
    };
    let authTimer = armAuthTimer(this.ctx.config.realtime.authTimeoutMs);
    socket.on('disconnect', () => {
      clearTimeout(authTimer);
      this.onDisconnect(socket);
    });
    let isAuthenticating = false;
    socket.on(SOCKET_EVENTS.authenticate, (payload: unknown, ack?: unknown) => {
      if (isAuthenticating || socket.data.kind) return; // one authentication per socket
      isAuthenticating = true;
      // The peer was on time; our own checks may queue behind others (a reconnect storm): allow them longer.
      clearTimeout(authTimer);
      authTimer = armAuthTimer(VERIFICATION_TIMEOUT_MS);
      const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : undefined;
      this.withAuthenticationSlot(() => this.authenticate(socket, payload))
        .then((refusal) => {
          clearTimeout(authTimer);
          if (refusal) {
            reply?.({ ok: false, ...refusal });
            this.refuse(socket, refusal.code, refusal.error);
          } else {
            reply?.({ ok: true });
          }
        })
        .catch((error: unknown) => {
          this.ctx.log.error({ err: error }, 'socket authentication failed');
          // An outage is temporary: the peer reconnects later (SERVICE_UNAVAILABLE is not final).
          this.refuse(socket, isDatabaseUnavailable(error) ? 'SERVICE_UNAVAILABLE' : 'INTERNAL');
        });
    });
    socket.on(SOCKET_EVENTS.botUpdate, (payload: unknown) => this.onBotReport(socket, payload));
  }

  /**
   * Runs authentications a few at a time, each after a turn of the event loop. The embedded
   * database answers through promise chains that never yield: hundreds of bots reconnecting at once
   * would otherwise keep the loop from sending pings and accepting sockets for seconds (the
   * benchmark showed mass ping timeouts at 5,000 bots).
   */
  private async withAuthenticationSlot<T>(task: () => Promise<T>): Promise<T> {
    if (this.authenticating >= MAX_CONCURRENT_AUTHENTICATIONS) {
      await new Promise<void>((resolve) => this.authenticationQueue.push(resolve));
    }
    this.authenticating += 1;
    try {
      await new Promise((resolve) => setImmediate(resolve));
      return await task();
    } finally {
      this.authenticating -= 1;
      this.authenticationQueue.shift()?.();
    }
  }

  /** Answers a refusal, or undefined once the socket joined its rooms. */
  private async authenticate(
    socket: HubSocket,
    payload: unknown,
  ): Promise<{ error: string; code: ErrorCode } | undefined> {
    if (!socket.connected) return undefined; // gone while waiting for its turn
    const parsed = socketAuthenticateInput.safeParse(payload);
    if (!parsed.success) return errorBody('VALIDATION_ERROR');
    const input = parsed.data;
    if (input.type === 'bot') return this.authenticateBot(socket, input);

    const session = await findSessionByToken(this.ctx, input.token);
    if (!session) return errorBody('UNAUTHORIZED');
    if (!socket.connected) return undefined;
    const isStaff = await hasPermissions(this.ctx, session.userId, ['can_manageMap']);
    if (input.type === 'admin') {
      if (!isStaff) return errorBody('FORBIDDEN');
    } else {
      const queryHwid = socket.data.queryHwid;
      if (queryHwid !== undefined && queryHwid !== input.hwid) return errorBody('VALIDATION_ERROR');
      if (!isStaff) {
        // Guessing other people's hwids: refused attempts are counted, and past the limit every
        // attempt of the user is refused (and disconnected) until the window ends.
        if (await this.ctx.limiter.isExhausted('watchRefusal', session.userId))
          return errorBody('RATE_LIMITED');
        const user = await findUserById(this.ctx.db, session.userId);
        if (user?.hwid !== input.hwid) {
          await this.ctx.limiter.hit('watchRefusal', session.userId).catch(() => undefined);
          return errorBody('FORBIDDEN');
        }
      }
    }
    if (!socket.connected) return undefined;
    Object.assign(socket.data, {
      kind: input.type,
      userId: session.userId,
      username: session.username,
      sessionId: session.sessionId,
      sessionExpiresAt: session.expiresAt.getTime(),
      hwid: input.type === 'client' ? input.hwid : undefined,
    });
    await socket.join([rooms.session(session.sessionId), rooms.user(session.userId), rooms.browsers]);
    if (input.type === 'admin') {
      await socket.join(rooms.admins);
      socket.emit(SOCKET_EVENTS.authenticated, { type: 'admin' });
      socket.emit(SOCKET_EVENTS.botSnapshot, await this.store.list());
      socket.emit(SOCKET_EVENTS.onlineCount, await this.store.count());
    } else {
      await socket.join(rooms.bot(input.hwid));
      socket.emit(SOCKET_EVENTS.authenticated, { type: 'client', hwid: input.hwid });
      const state = await this.store.get(input.hwid);
      if (state) socket.emit(SOCKET_EVENTS.botUpdate, state);
    }
    return undefined;
  }

  private async authenticateBot(
    socket: HubSocket,
    input: Extract<SocketAuthenticateInput, { type: 'bot' }>,
  ): Promise<{ error: string; code: ErrorCode } | undefined> {
    const session = await findBotSessionByToken(this.ctx, { token: input.token, hwid: input.hwid });
    if (!session) return errorBody('BOT_SESSION_INVALID');
    if (!canRunBot(await getUserPermissions(this.ctx, session.userId)))
      return errorBody('BOT_PERMISSION_REQUIRED');
    const allowedAccounts = await findAllowedAccounts(this.ctx, session.userId);
    if (!socket.connected) return undefined;

    // A newer connection for the same PC replaces the older one, on any node.
    const previous = this.bots.get(input.hwid);
    this.bots.delete(input.hwid);
    if (previous) this.refuse(previous.socket, 'BOT_REPLACED');
    this.io.in(rooms.agent(input.hwid)).emit(SOCKET_EVENTS.authError, errorBody('BOT_REPLACED'));
    this.io.in(rooms.agent(input.hwid)).disconnectSockets(true);

    const now = Date.now();
    const nowIso = new Date(now).toISOString();
    Object.assign(socket.data, {
      kind: 'bot',
      userId: session.userId,
      username: session.username,
      sessionId: session.sessionId,
      sessionExpiresAt: session.expiresAt.getTime(),
      hwid: input.hwid,
    });
    const connection: BotConnection = {
      socket,
      sessionId: session.sessionId,
      userId: session.userId,
      hwid: input.hwid,
      lastSeenAt: now,
      allowedAccounts,
      state: {
        hwid: input.hwid,
        owner: { id: session.userId, username: session.username },
        online: true,
        version: session.version,
        connectedAt: nowIso,
        lastSeenAt: nowIso,
        accounts: previous?.state.accounts ?? [],
      },
    };
    this.bots.set(input.hwid, connection);
    await socket.join([rooms.agent(input.hwid), rooms.userAgents(session.userId)]);
    socket.emit(SOCKET_EVENTS.authenticated, { type: 'bot', hwid: input.hwid });
    await this.publish(connection);
    this.isCountDirty = true;
    return undefined;
  }

  /** Sends `auth_error {error, code}` then closes the socket. */
  private refuse(socket: HubSocket, code: ErrorCode, message?: string): void {
    if (!socket.connected) return;
    this.counters.refused[code] = (this.counters.refused[code] ?? 0) + 1;
    socket.emit(SOCKET_EVENTS.authError, errorBody(code, message));
    socket.disconnect(true);
  }

  private onDisconnect(socket: HubSocket): void {
    const { kind, hwid } = socket.data;
    if (kind !== 'bot' || !hwid) return;
    const connection = this.bots.get(hwid);
    if (connection?.socket === socket)
      runInBackground(this.ctx.log, 'bot offline', () => this.markOffline(connection));
  }

  // ---- bot reports ------------------------------------------------------------------------

  /** Counts every incoming message; true once the socket sent too many in the window. */
  private isFlooding(socket: HubSocket): boolean {
    const data = socket.data;
    const now = Date.now();
    if (now - data.windowStartedAt >= FLOOD_WINDOW_MS) {
      data.windowStartedAt = now;
      data.windowCount = 0;
    }
    data.windowCount += 1;
    return data.windowCount > this.ctx.config.realtime.floodMessagesPer10s;
  }

  /** Token bucket: a few updates per second, extra ones dropped. */
  private takeUpdateToken(socket: HubSocket): boolean {
    const data = socket.data;
    const perSecond = this.ctx.config.realtime.botUpdatesPerSecond;
    const now = Date.now();
    data.updateTokens = Math.min(perSecond, data.updateTokens + ((now - data.tokensAt) / 1000) * perSecond);
    data.tokensAt = now;
    if (data.updateTokens < 1) {
      data.dropped += 1;
      this.counters.droppedReports += 1;
      return false;
    }
    data.updateTokens -= 1;
    return true;
  }

  private onBotReport(socket: HubSocket, payload: unknown): void {
    if (socket.data.kind !== 'bot' || !socket.data.hwid) return;
    const connection = this.bots.get(socket.data.hwid);
    if (connection?.socket !== socket) return;
    if (!this.takeUpdateToken(socket)) return;
    const parsed = botReportSchema.safeParse(payload);
    if (!parsed.success) {
      this.counters.invalidReports += 1;
      return;
    }
    this.metrics.updatesIn.inc();
    const now = Date.now();
    connection.lastSeenAt = now;
    const accounts = parsed.data.accounts.filter((account) =>
      connection.allowedAccounts.has(account.name.toLowerCase()),
    );
    this.recordActivity(connection, connection.state.accounts, accounts, now);
    // Updated in place: the store, the pending admin batch and the connection share one object.
    const { state } = connection;
    if (parsed.data.version) state.version = parsed.data.version;
    state.lastSeenAt = new Date(now).toISOString();
    state.accounts = mergeAccounts(state.accounts, accounts);
    this.publish(connection).catch((error: unknown) =>
      this.ctx.log.warn({ err: error }, 'bot state store failed'),
    );
  }

  private async reloadAllowedAccounts(connection: BotConnection): Promise<void> {
    try {
      connection.allowedAccounts = await findAllowedAccounts(this.ctx, connection.userId);
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'whitelist reload failed');
    }
  }

  /** Stat deltas since the previous report of each account (its first report is the baseline). */
  private recordActivity(
    connection: BotConnection,
    before: BotAccount[],
    after: BotAccount[],
    now: number,
  ): void {
    for (const account of after) {
      const previous = before.find((candidate) => candidate.name === account.name)?.stats;
      if (!previous) continue;
      const next = account.stats;
      const delta = (key: keyof BotAccount['stats']) =>
        next[key] >= previous[key] ? next[key] - previous[key] : next[key];
      this.recorder.record({
        userId: connection.userId,
        hwid: connection.hwid,
        account: account.name,
        at: now,
        delta: {
          gathered: delta('gathered'),
          treasures: delta('treasures'),
          kamas: delta('kamas'),
          xp: delta('xp'),
        },
      });
    }
  }

  /** Stores the state, sends it to the bot's watchers at once and queues it for staff. */
  private publish(connection: BotConnection): Promise<void> {
    const { state } = connection;
    const room = rooms.bot(state.hwid);
    if (this.hasAudience(room)) {
      this.io.to(room).emit(SOCKET_EVENTS.botUpdate, state);
      this.metrics.statesOut.inc({ audience: 'owner' });
    }
    this.pendingAdmin.set(state.hwid, state);
    return this.store.set(state);
  }

  /**
   * Socket.IO serialises a broadcast before looking for recipients: most bots have no watcher, so
   * on a single node an empty room is skipped. With several nodes watchers may be elsewhere.
   */
  private hasAudience(room: string): boolean {
    if (this.isClustered) return true;
    return (this.io.sockets.adapter.rooms.get(room)?.size ?? 0) > 0;
  }

  /**
   * Sends a batch in slices, one per turn of the event loop: encoding thousands of states at once
   * would hold every other socket back for tens of milliseconds.
   */
  private emitAdminBatch(batch: BotState[], from: number): void {
    const slice = batch
      .slice(from, from + ADMIN_BATCH_SLICE)
      .filter((state) => this.bots.get(state.hwid)?.state === state); // still online here
    if (slice.length > 0) {
      this.io.to(rooms.admins).emit(SOCKET_EVENTS.botUpdate, slice);
      this.metrics.statesOut.inc({ audience: 'admin' }, slice.length);
    }
    if (from + ADMIN_BATCH_SLICE < batch.length) {
      setImmediate(() => {
        if (!this.isClosed) this.emitAdminBatch(batch, from + ADMIN_BATCH_SLICE);
      });
    }
  }

  private flushAdminFeed(): void {
    if (this.pendingAdmin.size > 0) {
      const batch = [...this.pendingAdmin.values()];
      this.pendingAdmin.clear();
      if (this.hasAudience(rooms.admins)) this.emitAdminBatch(batch, 0);
    }
    if (this.isCountDirty) {
      this.isCountDirty = false;
      runInBackground(this.ctx.log, 'online count', async () => {
        this.io.to(rooms.admins).emit(SOCKET_EVENTS.onlineCount, await this.store.count());
      });
    }
  }

  private async offlineTimeoutMs(): Promise<number> {
    const configured = this.ctx.config.realtime.offlineTimeoutMs;
    if (configured !== undefined) return configured;
    return (await getSettings(this.ctx)).botOfflineTimeoutSeconds * 1000;
  }

  private async sweepSilentBots(): Promise<void> {
    if (this.bots.size === 0 || this.isClosed) return;
    const timeoutMs = await this.offlineTimeoutMs();
    const now = Date.now();
    for (const connection of [...this.bots.values()]) {
      if (now - connection.lastSeenAt > timeoutMs) {
        this.counters.silentBots += 1;
        await this.markOffline(connection);
        connection.socket.disconnect(true);
      }
    }
  }

  /** The bot went away: owners get its offline state, staff `bot_disconnect`. */
  private async markOffline(connection: BotConnection): Promise<void> {
    if (this.bots.get(connection.hwid) !== connection) return;
    this.bots.delete(connection.hwid);
    this.pendingAdmin.delete(connection.hwid);
    const offline: BotState = { ...connection.state, online: false };
    await this.store.delete(connection.hwid);
    this.io.to(rooms.bot(connection.hwid)).emit(SOCKET_EVENTS.botUpdate, offline);
    this.io.to(rooms.admins).emit(SOCKET_EVENTS.botDisconnect, connection.hwid);
    this.isCountDirty = true;
  }

  // ---- reactions to domain events -----------------------------------------------------------

  private subscribeToDomainEvents(): void {
    const { events } = this.ctx;
    const safely = (task: () => Promise<void>) => {
      // After the other listeners (caches) have dropped their stale entries.
      setImmediate(() => {
        if (this.isClosed) return;
        task().catch((error: unknown) =>
          this.ctx.log.error({ err: error }, 'realtime event handling failed'),
        );
      });
    };
    this.unsubscribers.push(
      events.on('sessions.revoked', ({ sessionIds }) => {
        for (const sessionId of sessionIds) this.closeRoom(rooms.session(sessionId), 'UNAUTHORIZED');
      }),
      events.on('user.banned', ({ userId }) =>
        safely(async () => {
          this.closeRoom(rooms.user(userId), 'ACCOUNT_BANNED');
          this.closeRoom(rooms.userAgents(userId), 'ACCOUNT_BANNED');
          await revokeBotSessions(this.ctx, { userId });
        }),
      ),
      events.on('botKey.rotated', ({ userId }) =>
        safely(async () => {
          this.closeRoom(rooms.userAgents(userId), 'BOT_SESSION_INVALID');
          await revokeBotSessions(this.ctx, { userId });
        }),
      ),
      events.on('hwid.reset', ({ userId, hwid }) =>
        safely(async () => {
          this.closeRoom(rooms.agent(hwid), 'BOT_SESSION_INVALID');
          await revokeBotSessions(this.ctx, { userId, hwid });
          await this.recheckUser(userId);
        }),
      ),
      events.on('user.changed', ({ userId }) => safely(() => this.recheckUser(userId))),
      events.on('whitelist.changed', ({ userId }) =>
        safely(async () => {
          for (const connection of this.bots.values()) {
            if (connection.userId === userId) await this.reloadAllowedAccounts(connection);
          }
        }),
      ),
      events.on('settings.changed', () =>
        safely(async () => {
          const settings = toPublicSettings(await getSettings(this.ctx));
          this.io.to(rooms.browsers).emit(SOCKET_EVENTS.settingsUpdate, settings);
        }),
      ),
    );
  }

  /** Sends `auth_error` to every local socket of a room and closes them. */
  private closeRoom(room: string, code: ErrorCode): void {
    for (const socket of this.localSocketsIn(room)) this.refuse(socket, code);
  }

  private localSocketsIn(room: string): HubSocket[] {
    const ids = this.io.sockets.adapter.rooms.get(room);
    if (!ids) return [];
    const found: HubSocket[] = [];
    for (const id of ids) {
      const socket = this.io.sockets.sockets.get(id) as HubSocket | undefined;
      if (socket) found.push(socket);
    }
    return found;
  }

  /**
   * Nothing announces an expiry: every sweep closes the sockets whose session has expired, and
   * re-checks the users whose permission grants ran out since the last sweep (one indexed query,
   * not one per socket, so it stays cheap with thousands of bots).
   */
  private async sweepExpired(): Promise<void> {
    if (this.isClosed) return;
    const now = Date.now();
    for (const socket of this.io.sockets.sockets.values() as Iterable<HubSocket>) {
      const expiresAt = socket.data.sessionExpiresAt;
      if (expiresAt !== undefined && expiresAt <= now) {
        this.refuse(socket, socket.data.kind === 'bot' ? 'BOT_SESSION_INVALID' : 'UNAUTHORIZED');
      }
    }
    const since = new Date(this.grantsCheckedUntil);
    this.grantsCheckedUntil = now;
    try {
      for (const userId of await findUsersWithGrantsExpiredBetween(this.ctx.db, since, new Date(now))) {
        this.ctx.events.emit('user.changed', { userId }); // drops cached permissions, then re-checks
      }
    } catch (error) {
      this.ctx.log.error({ err: error }, 'realtime expiry sweep failed');
    }
  }

  /** Permissions or PC binding of a user changed: close the sockets they may no longer hold. */
  private async recheckUser(userId: string): Promise<void> {
    const browsers = this.localSocketsIn(rooms.user(userId));
    const agents = this.localSocketsIn(rooms.userAgents(userId));
    if (browsers.length === 0 && agents.length === 0) return;
    const held = await getUserPermissions(this.ctx, userId);
    const isStaff = held.includes('can_manageMap');
    const user = await findUserById(this.ctx.db, userId);
    if (!user || user.bannedAt) {
      for (const socket of [...browsers, ...agents]) this.refuse(socket, 'UNAUTHORIZED');
      return;
    }
    for (const socket of browsers) {
      if (socket.data.kind === 'admin' && !isStaff) this.refuse(socket, 'FORBIDDEN');
      if (socket.data.kind === 'client' && !isStaff && socket.data.hwid !== user.hwid)
        this.refuse(socket, 'FORBIDDEN');
    }
    for (const socket of agents) {
      if (!canRunBot(held)) this.refuse(socket, 'BOT_PERMISSION_REQUIRED');
      else if (socket.data.hwid !== user.hwid) this.refuse(socket, 'BOT_SESSION_INVALID');
    }
  }

  // ---- services for other modules -----------------------------------------------------------

  /** Disconnects a PC's bot agent; true when one was online. */
  async kickBot(hwid: string): Promise<boolean> {
    const connection = this.bots.get(hwid);
    const wasOnline = (await this.store.get(hwid)) !== undefined;
    this.closeRoom(rooms.agent(hwid), 'BOT_KICKED');
    if (connection) await this.markOffline(connection);
    this.io.in(rooms.agent(hwid)).disconnectSockets(true); // other nodes
    return wasOnline;
  }

  /** Browser sockets connected to this node. */
  listViewers(): ConnectedViewer[] {
    const viewers: ConnectedViewer[] = [];
    for (const socket of this.io.sockets.sockets.values() as Iterable<HubSocket>) {
      const { kind, userId, username, hwid, ip, connectedAt } = socket.data;
      if ((kind === 'client' || kind === 'admin') && userId && username) {
        viewers.push({
          socketId: socket.id,
          userId,
          username,
          type: kind,
          hwid: hwid ?? null,
          ip,
          connectedAt,
        });
      }
    }
    return viewers;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.io.disconnectSockets(true);
    this.bots.clear();
    this.io.engine.close();
    await this.recorder.flush();
    await this.store.close();
  }
}

const STATUS_NAMES = new Map<string, BotStatus>(BOT_STATUSES.map((status) => [status, status]));

/**
 * Copies a report into the retained state objects when the accounts are the same as before: the
 * parsed report then dies young instead of being promoted, which keeps garbage collection cheap
 * with thousands of bots (the benchmark showed GC as the hub's main extra cost).
 */
function mergeAccounts(current: BotAccount[], incoming: BotAccount[]): BotAccount[] {
  if (current.length !== incoming.length) return incoming;
  for (let i = 0; i < current.length; i += 1) if (current[i]!.name !== incoming[i]!.name) return incoming;
  for (let i = 0; i < current.length; i += 1) {
    const kept = current[i]!;
    const next = incoming[i]!;
    if (kept.character !== next.character) kept.character = next.character;
    kept.level = next.level;
    kept.status = STATUS_NAMES.get(next.status) ?? next.status;
    kept.position.mapId = next.position.mapId;
    kept.position.x = next.position.x;
    kept.position.y = next.position.y;
    if (kept.routeId !== next.routeId) kept.routeId = next.routeId;
    kept.stats.gathered = next.stats.gathered;
    kept.stats.treasures = next.stats.treasures;
    kept.stats.kamas = next.stats.kamas;
    kept.stats.xp = next.stats.xp;
    if (kept.message !== next.message) kept.message = next.message;
  }
  return current;
}
