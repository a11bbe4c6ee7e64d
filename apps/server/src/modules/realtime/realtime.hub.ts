import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { botReportSchema, type ErrorCode, SOCKET_EVENTS, SOCKET_PATH } from '@bot/contracts';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { repeatInBackground, runInBackground } from '../../core/background.ts';
import { trustProxyRule } from '../../core/client-address.ts';
import { compileSafeParse } from '../../core/fast-validation.ts';
import type { RedisConnection } from '../../core/redis.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { BotEventRecorder } from '../bots/bot-events.ts';
import { ActivityRecorder } from '../bots/bots.history.ts';
import type { LiveFleet } from '../bots/live-fleet.ts';
import { getSettings } from '../settings/settings.service.ts';
import { type Audience, ClusterAudience, LocalAudience } from './audience.ts';
import { BotFanOut } from './bot-fan-out.ts';
import { BotPresence } from './bot-presence.ts';
import { RedisBotStateStore } from './bot-state-store.redis.ts';
import { type BotStateStore, InMemoryBotStateStore } from './bot-state-store.ts';
import { type AnnouncedViewport, MapViewports } from './map-viewports.ts';
import { admitHandshakes, keepOnlyHandshakeFacts } from './realtime.admission.ts';
import { createRealtimeMetrics } from './realtime.metrics.ts';
import { type HubServer, type HubSocket, type Refusal, refusal, type SocketData } from './realtime.types.ts';
import { rooms } from './rooms.ts';
import { SocketAccess } from './socket-access.ts';
import { AuthenticationSlots, isRefusal, SocketAuthenticator, type SocketIdentity } from './socket-auth.ts';
import { initialGuardState, isFlooding, takeUpdateToken } from './socket-guards.ts';
import { admitStaffMap, type StaffFeedDeps } from './staff-feed.ts';
import { textOnlyParser } from './text-parser.ts';
import { listViewers } from './viewers.ts';

/** Longest our own checks of an `authenticate` may take before the socket is dropped. */
const VERIFICATION_TIMEOUT_MS = 120_000;
/** How often each node shares which rooms it watches (a watcher elsewhere waits at most this). */
const AUDIENCE_REFRESH_MS = 1_000;
/** Every bot sends a report a second: validated by a compiled fast path, zod for the rest. */
const parseBotReport = compileSafeParse(botReportSchema);

/**
 * The Socket.IO hub of docs/specification.md §5, wired from focused parts: connection authentication
 * (`socket-auth`), per-socket guards (`socket-guards`), presence and the shared state store
 * (`bot-presence`, `bot-state-store*`), fan-out and batching (`bot-fan-out`, `audience`), access
 * re-checks on domain events and expiries (`socket-access`) and the history writer
 * (`ActivityRecorder`). With `REDIS_URL` the same parts span every node: the Socket.IO Redis
 * streams adapter carries broadcasts, Redis holds states, watched rooms and the event relay.
 */
export class RealtimeHub {
  readonly io: HubServer;
  /** The fleet as the domain modules see it (`ctx.live`). */
  readonly live: LiveFleet;
  private readonly store: BotStateStore;
  private readonly recorder: ActivityRecorder;
  private readonly botEvents: BotEventRecorder;
  private readonly presence: BotPresence;
  private readonly fanOut: BotFanOut;
  private readonly viewports: MapViewports;
  private readonly staffFeed: StaffFeedDeps;
  private readonly access: SocketAccess;
  private readonly audience: Audience;
  private readonly slots = new AuthenticationSlots();
  private readonly authenticator: SocketAuthenticator;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly metrics;
  /** Names this node among the others (watched rooms, staff map cells). */
  private readonly nodeId = randomUUID().slice(0, 8);
  private isClosed = false;

  constructor(
    private readonly ctx: AppContext,
    server: HttpServer,
    private readonly redis: RedisConnection | undefined,
  ) {
    const { realtime } = ctx.config;
    const trustProxy = trustProxyRule(ctx.config.trustProxy);
    this.io = new Server(server, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      allowUpgrades: false,
      serveClient: false,
      maxHttpBufferSize: realtime.maxMessageBytes,
      perMessageDeflate: false,
      parser: textOnlyParser,
      // No connection state recovery: it would skip the authentication of a revoked session.
      // onlyPlaintext: nothing we emit is binary, so the adapter need not search messages for it.
      ...(redis
        ? { adapter: createAdapter(redis.adapter, { streamName: 'bp:socket.io', onlyPlaintext: true }) }
        : {}),
    });
    admitHandshakes(ctx, server, trustProxy); // in front of the listeners Socket.IO just attached
    keepOnlyHandshakeFacts(this.io, trustProxy);
    this.authenticator = new SocketAuthenticator(ctx);

    this.store = redis ? new RedisBotStateStore(redis.commands) : new InMemoryBotStateStore();
    this.audience = redis
      ? new ClusterAudience(this.io, redis.commands, {
          nodeId: this.nodeId,
          roomFilter: isSharedAudienceRoom,
          refreshMs: AUDIENCE_REFRESH_MS,
        })
      : new LocalAudience(this.io);
    this.metrics = createRealtimeMetrics(ctx.metrics.registry, {
      socketKinds: () => [...this.io.sockets.sockets.values()].map((socket) => socket.data.kind),
      countOnline: () => this.store.count(),
    });
    this.recorder = new ActivityRecorder(ctx);
    this.botEvents = new BotEventRecorder(ctx);
    this.viewports = new MapViewports({
      io: this.io,
      nodeId: this.nodeId,
      localStates: () => this.presence.localStates(),
      announce: (entries) => this.announceViewports(entries),
      isDegraded: () => this.isDegraded(),
      maxStates: realtime.mapMaxStates,
    });
    this.staffFeed = {
      store: this.store,
      audience: this.audience,
      viewports: this.viewports,
      fullFeedMaxBots: realtime.fullFeedMaxBots,
    };
    this.fanOut = new BotFanOut({
      io: this.io,
      audience: this.audience,
      viewports: this.viewports,
      metrics: this.metrics,
      log: ctx.log,
      countOnline: () => this.store.count(),
      isCurrent: (state) => this.presence.isCurrent(state),
      isDegraded: () => this.isDegraded(),
      sendToPeers: (audience, count, states) => this.io.serverSideEmit('botStates', audience, count, states),
    });
    this.presence = new BotPresence({
      store: this.store,
      fanOut: this.fanOut,
      recorder: this.recorder,
      events: this.botEvents,
      refuse: this.refuse,
      log: ctx.log,
      offlineTimeoutMs: () => this.offlineTimeoutMs(),
    });
    this.access = new SocketAccess({ ctx, io: this.io, presence: this.presence, refuse: this.refuse });
    // Redis (back) up: the bots' states go to it at once, not at their next periodic write.
    redis?.commands.on('ready', () => this.presence.storeAllAgain());
    if (redis) this.relayDomainEvents();

    this.io.on('connection', (socket: HubSocket) => this.onConnection(socket));
    this.startTimers();
    this.live = {
      onlineBots: () => this.store.list(),
      botState: (hwid) => this.store.get(hwid),
      pendingHistory: (userId, hwid) => this.recorder.pendingFor(userId, hwid),
      kickBot: (hwid) => this.kickBot(hwid),
      connectedViewers: () => listViewers(this.io, this.isDegraded()),
    };
  }

  // ---- wiring ------------------------------------------------------------------------------

  /**
   * Domain events reach every node (revocations, bans, settings): each acts on its own sockets.
   * Staff maps' viewports too: each node serves them its own bots. Bot states come from the nodes
   * holding the bots, for the watchers here.
   */
  private relayDomainEvents(): void {
    const { events } = this.ctx;
    events.relayTo((name, payload) => this.io.serverSideEmit('domainEvent', name, payload));
    this.io.on('domainEvent', (name: string, payload: unknown) => events.receiveFromPeer(name, payload));
    this.io.on('mapViewports', (entries: AnnouncedViewport[]) => this.viewports.receive(entries));
    this.io.on('botStates', (...message) => this.fanOut.fromPeer(...message));
  }

  private announceViewports(entries: AnnouncedViewport[]): void {
    if (this.redis && !this.isDegraded()) this.io.serverSideEmit('mapViewports', entries);
  }

  private startTimers(): void {
    const { log, config } = this.ctx;
    const { realtime } = config;
    const sweepEveryMs = Math.min(1000, Math.max(50, (realtime.offlineTimeoutMs ?? 3000) / 3));
    this.timers.push(
      repeatInBackground(log, 'admin feed flush', realtime.adminFlushMs, () => {
        this.fanOut.flush();
        return this.presence.persist();
      }),
      repeatInBackground(log, 'silent bot sweep', sweepEveryMs, async () => {
        this.metrics.silentBots.inc(await this.presence.sweepSilent());
        if (this.redis?.isReady()) this.metrics.reapedBots.inc(await this.presence.reapOrphans());
      }),
      repeatInBackground(log, 'bot history flush', realtime.historyFlushMs, () =>
        this.recorder.flush({ all: false }),
      ),
      repeatInBackground(log, 'session expiry sweep', realtime.expirySweepMs, () =>
        this.access.sweepExpired(),
      ),
      repeatInBackground(log, 'map cell counts', realtime.mapCellsMs, () => this.viewports.tick()),
    );
    if (this.redis) {
      this.timers.push(
        repeatInBackground(log, 'watched rooms refresh', AUDIENCE_REFRESH_MS, () => {
          if (this.redis?.isReady()) return this.audience.refresh();
        }),
      );
    }
  }

  /** Redis configured but unreachable: this node serves its own sockets alone meanwhile. */
  private isDegraded(): boolean {
    return this.redis !== undefined && !this.redis.isReady();
  }

  // ---- one socket's life -------------------------------------------------------------------

  private onConnection(socket: HubSocket): void {
    const { realtime } = this.ctx.config;
    const meta = (socket.conn as unknown as { meta?: { queryHwid?: string; ip: string } }).meta;
    const now = Date.now();
    socket.data = {
      ip: meta?.ip ?? socket.handshake.address,
      queryHwid: meta?.queryHwid,
      connectedAt: new Date(now).toISOString(),
      ...initialGuardState(realtime, now),
    } satisfies SocketData;
    // Every message counts, whatever its event; counted on the engine socket (cheaper than a
    // Socket.IO middleware, which allocates per packet).
    socket.conn.on('data', () => {
      if (isFlooding(socket.data, realtime)) this.refuse(socket, 'SOCKET_FLOOD');
    });
    const armAuthTimer = (delayMs: number) => {
      // Checked after the loop's next poll for input: when the loop was busy (a reconnect storm),
      // timers run before the sockets are read, and an `authenticate` that arrived in time would
      // otherwise be refused. A timer replaced meanwhile (the peer was on time) is stale.
      const timer: NodeJS.Timeout = setTimeout(() => {
        setImmediate(() => {
          if (timer === authTimer && !socket.data.kind) this.refuse(socket, 'AUTH_TIMEOUT');
        });
      }, delayMs);
      timer.unref();
      return timer;
    };
    let isAuthenticating = false;
    let authTimer: NodeJS.Timeout | undefined = armAuthTimer(realtime.authTimeoutMs);
    socket.on('disconnect', () => {
      clearTimeout(authTimer);
      if (socket.data.feed === 'viewport') this.viewports.remove(socket.id);
      if (!this.isClosed)
        runInBackground(this.ctx.log, 'bot offline', () => this.presence.disconnected(socket));
    });
    socket.on(SOCKET_EVENTS.authenticate, (payload: unknown, ack?: unknown) => {
      if (isAuthenticating || socket.data.kind) return; // one authentication per socket
      isAuthenticating = true;
      // The peer was on time; our own checks may queue behind others (a reconnect storm): allow them longer.
      clearTimeout(authTimer);
      authTimer = armAuthTimer(VERIFICATION_TIMEOUT_MS);
      const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : undefined;
      this.slots
        .run(() => this.authenticate(socket, payload))
        .then((refused) => {
          clearTimeout(authTimer);
          authTimer = undefined;
          if (refused) {
            reply?.({ ok: false, ...refused });
            this.refuse(socket, refused.code, refused.error);
          } else {
            reply?.({ ok: true });
          }
        })
        .catch((error: unknown) => {
          this.ctx.log.error({ err: error }, 'authentification d’un socket en échec');
          // An outage is temporary: the peer reconnects later (SERVICE_UNAVAILABLE is not final).
          this.refuse(socket, isDatabaseUnavailable(error) ? 'SERVICE_UNAVAILABLE' : 'INTERNAL');
        });
    });
    socket.on(SOCKET_EVENTS.botUpdate, (payload: unknown) => this.onBotReport(socket, payload));
    socket.on(SOCKET_EVENTS.mapViewport, (payload: unknown) => this.viewports.changeFrom(socket, payload));
  }

  /** Answers a refusal, or undefined once the socket joined its rooms (or left meanwhile). */
  private async authenticate(socket: HubSocket, payload: unknown): Promise<Refusal | undefined> {
    if (!socket.connected) return undefined; // gone while waiting for its turn
    const identity = await this.authenticator.authenticate(payload, socket.data.queryHwid);
    if (isRefusal(identity)) return identity;
    if (!socket.connected) return undefined;
    Object.assign(socket.data, {
      kind: identity.kind,
      userId: identity.userId,
      username: identity.username,
      sessionId: identity.sessionId,
      sessionExpiresAt: identity.sessionExpiresAt,
      hwid: identity.hwid,
      version: identity.kind === 'bot' ? identity.bot.version : undefined,
    });
    if (identity.kind === 'bot') await this.admitBot(socket, identity);
    else await this.admitBrowser(socket, identity);
    return undefined;
  }

  private async admitBrowser(
    socket: HubSocket,
    identity: Exclude<SocketIdentity, { kind: 'bot' }>,
  ): Promise<void> {
    await socket.join([rooms.session(identity.sessionId), rooms.user(identity.userId), rooms.browsers]);
    if (identity.kind === 'admin') {
      await admitStaffMap(this.staffFeed, socket, identity.viewport);
      return;
    }
    const hwid = identity.hwid as string;
    await socket.join(rooms.bot(hwid));
    this.audience.joined(rooms.bot(hwid));
    socket.emit(SOCKET_EVENTS.authenticated, { type: 'client', hwid });
    const state = await this.store.get(hwid);
    if (state) socket.emit(SOCKET_EVENTS.botUpdate, state);
  }

  private async admitBot(
    socket: HubSocket,
    identity: Extract<SocketIdentity, { kind: 'bot' }>,
  ): Promise<void> {
    const { hwid } = identity;
    await this.presence.connect(socket, identity.bot);
    // An older connection for the same PC on another node: told, then closed (it was claimed first).
    const elsewhere = this.io.in(rooms.agent(hwid)).except(socket.id);
    elsewhere.emit(SOCKET_EVENTS.authError, refusal('BOT_REPLACED'));
    elsewhere.disconnectSockets(true);
    await socket.join([rooms.agent(hwid), rooms.userAgents(identity.userId)]);
    socket.emit(SOCKET_EVENTS.authenticated, { type: 'bot', hwid });
  }

  private onBotReport(socket: HubSocket, payload: unknown): void {
    if (!this.presence.isHeldBy(socket)) return;
    if (!takeUpdateToken(socket.data, this.ctx.config.realtime)) {
      this.metrics.reportsDropped.inc({ reason: 'throttled' });
      return;
    }
    const parsed = parseBotReport(payload);
    if (!parsed.success) {
      this.metrics.reportsDropped.inc({ reason: 'invalid' });
      return;
    }
    this.metrics.updatesIn.inc();
    this.presence.report(socket, parsed.data);
  }

  /** Sends `auth_error {error, code}` then closes the socket. */
  private readonly refuse = (socket: HubSocket, code: ErrorCode, message?: string): void => {
    if (!socket.connected) return;
    this.metrics.refusals.inc({ code });
    socket.emit(SOCKET_EVENTS.authError, refusal(code, message));
    socket.disconnect(true);
  };

  private async offlineTimeoutMs(): Promise<number> {
    const configured = this.ctx.config.realtime.offlineTimeoutMs;
    if (configured !== undefined) return configured;
    return (await getSettings(this.ctx)).botOfflineTimeoutSeconds * 1000;
  }

  /** Disconnects a PC's bot agent, on whichever node holds it; true when one was online. */
  private async kickBot(hwid: string): Promise<boolean> {
    const wasOnline = (await this.store.get(hwid)) !== undefined;
    const agent = this.io.in(rooms.agent(hwid));
    agent.emit(SOCKET_EVENTS.authError, refusal('BOT_KICKED'));
    agent.disconnectSockets(true);
    return wasOnline;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.access.close();
    this.fanOut.close();
    this.viewports.close();
    this.presence.close();
    this.ctx.events.relayTo(undefined);
    this.io.local.disconnectSockets(true);
    this.io.engine.close();
    this.io.of('/').adapter.close(); // stops reading the Redis stream (the HTTP server closes with Fastify)
    await this.recorder.flush();
    await this.botEvents.settled();
    await this.store.close();
  }
}

/** Rooms whose watchers other nodes must know about: one bot's page, and the fleet map. */
function isSharedAudienceRoom(room: string): boolean {
  return room === rooms.admins || room.startsWith(rooms.bot(''));
}
