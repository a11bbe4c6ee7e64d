import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AppContext } from '../../context.ts';
import type { BackgroundLoop } from '../../core/background.ts';
import type { EventBus } from '../../core/events.ts';
import type { LiveFleet } from '../../core/live-fleet.ts';
import type { RedisConnection } from '../../core/redis.ts';
import { BotEventRecorder } from '../bots/index.ts';
import { getSettings } from '../settings/index.ts';
import { type Audience, ClusterAudience, LocalAudience } from './audience.ts';
import { BotCommandRelay } from './bot-commands.ts';
import { BotFanOut } from './bot-fan-out.ts';
import { BotLogRelay } from './bot-log-relay.ts';
import { BotPresence } from './bot-presence.ts';
import { BotSessions } from './bot-sessions.ts';
import { RedisBotStateStore } from './bot-state-store.redis.ts';
import { type BotStateStore, InMemoryBotStateStore } from './bot-state-store.ts';
import { ClusterRelay } from './cluster-relay.ts';
import { LocalBots } from './local-bots.ts';
import { MapViewports } from './map-viewports.ts';
import { AUDIENCE_REFRESH_MS, realtimeLoops } from './realtime.loops.ts';
import { createRealtimeMetrics } from './realtime.metrics.ts';
import type { HubServer, HubSocket } from './realtime.types.ts';
import { tellAgentsOfYanks } from './release-notices.ts';
import { rooms } from './rooms.ts';
import { SocketAccess } from './socket-access.ts';
import { AuthenticationSlots, SocketAuthenticator } from './socket-auth.ts';
import { refuserCounting } from './socket-guards.ts';
import { SocketLifecycle } from './socket-lifecycle.ts';
import { createSocketServer } from './socket-server.ts';
import { listViewers } from './viewers.ts';

/** What the hub offers the rest of the app. */
export interface RealtimeHub {
  /** The fleet as the domain modules see it (`ctx.live`). */
  live: LiveFleet;
  /** Background work of the hub, which `app.ts` starts, and stops before `close`. */
  loops: BackgroundLoop[];
  /** Shutdown: this node's sockets closed, buffered history written (the loops stopped first). */
  close(): Promise<void>;
}

/**
 * The Socket.IO hub of docs/specification.md §5, built from focused parts, each from those built
 * before it: the server and the node's link to the others (`socket-server`, `cluster-relay`), shared
 * state and delivery (`deliveryParts`), presence and history (`bot-presence`, which feeds the bots
 * module's recorders, its activity being `ctx.activity` from app.ts), access re-checks
 * (`socket-access`), the bot agents' side (`bot-sessions`), then one socket's life
 * (`socket-lifecycle`). The hub is the transport, so it alone holds the whole event
 * `bus` (the domain modules only listen on `ctx.events` and emit in their transactions): it relays
 * the bus between nodes and announces what time alone changed (a grant run out).
 */
export function createRealtimeHub(
  ctx: AppContext,
  server: HttpServer,
  redis: RedisConnection | undefined,
  bus: EventBus,
): RealtimeHub {
  const { realtime: config } = ctx.config;
  const io = createSocketServer(ctx, server, redis);
  const cluster = new ClusterRelay(io, redis);
  const { store, audience, metrics, refuse, bots, viewports, fanOut } = deliveryParts(
    ctx,
    io,
    redis,
    cluster,
  );
  const botEvents = new BotEventRecorder(ctx);
  const presence = new BotPresence({
    bots,
    store,
    fanOut,
    activity: ctx.activity,
    events: botEvents,
    refuse,
    log: ctx.log,
    offlineTimeoutMs: () => offlineTimeoutMs(ctx),
  });
  const access = new SocketAccess({ ctx, bus, io, presence, refuse });
  const stopRelay = cluster.start({ events: bus, viewports, fanOut, presence });
  const botSessions = new BotSessions({ io, store, presence, metrics, config });
  const commands = new BotCommandRelay({ ctx, io });
  const botLog = new BotLogRelay({ ctx, io, audience });
  const stopYankNotices = tellAgentsOfYanks(ctx, io);
  const lifecycle = new SocketLifecycle({
    config,
    log: ctx.log,
    refuse,
    store,
    audience,
    viewports,
    presence,
    bots: botSessions,
    commands,
    botLog,
    authenticator: new SocketAuthenticator(ctx),
    slots: new AuthenticationSlots(),
    staffFeed: { store, audience, viewports, fullFeedMaxBots: config.fullFeedMaxBots },
  });
  io.on('connection', (socket: HubSocket) => lifecycle.onConnection(socket));

  const close = async () => {
    lifecycle.close();
    access.close();
    commands.close();
    botLog.close();
    stopYankNotices();
    fanOut.close();
    viewports.close();
    presence.close();
    stopRelay();
    closeSocketServer(io);
    // The app writes the activity buffered once this returns (app.ts); the bots' timelines here.
    await botEvents.settled();
    await store.close();
  };
  let closing: Promise<void> | undefined;
  return {
    live: {
      onlineBots: () => store.list(),
      botState: (hwid) => store.get(hwid),
      kickBot: (hwid) => botSessions.kick(hwid),
      connectedViewers: () => listViewers(io, cluster.isDegraded()),
    },
    loops: realtimeLoops({
      config,
      redis,
      fanOut,
      presence,
      access,
      viewports,
      audience,
      metrics,
      botLog,
    }),
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}

/**
 * What holds and delivers bot states: the shared store, who watches what, this node's bots, the
 * staff maps and the fan-out (in that order: each reads only the ones before it).
 */
function deliveryParts(
  ctx: AppContext,
  io: HubServer,
  redis: RedisConnection | undefined,
  cluster: ClusterRelay,
) {
  const { realtime: config } = ctx.config;
  /** Names this node among the others (watched rooms, staff map cells). */
  const nodeId = randomUUID().slice(0, 8);
  const store: BotStateStore = redis ? new RedisBotStateStore(redis.commands) : new InMemoryBotStateStore();
  const audience: Audience = redis
    ? new ClusterAudience(io, redis.commands, {
        nodeId,
        roomFilter: isSharedAudienceRoom,
        refreshMs: AUDIENCE_REFRESH_MS,
      })
    : new LocalAudience(io);
  const metrics = createRealtimeMetrics(ctx.metrics.registry, {
    socketKinds: () => [...io.sockets.sockets.values()].map((socket) => socket.data.kind),
    countOnline: () => store.count(),
  });
  const bots = new LocalBots();
  const viewports = new MapViewports({
    io,
    nodeId,
    localStates: () => bots.states(),
    announce: cluster.announceViewports,
    isDegraded: cluster.isDegraded,
    maxStates: config.mapMaxStates,
  });
  const fanOut = new BotFanOut({
    io,
    audience,
    viewports,
    metrics,
    log: ctx.log,
    countOnline: () => store.count(),
    isCurrent: (state) => bots.isCurrent(state),
    isDegraded: cluster.isDegraded,
    isOverloaded: () => ctx.load.isOverloaded,
    pendingMinutes: (userId, hwid) => ctx.activity.pendingFor(userId, hwid),
    holderOf: (hwid) => bots.get(hwid)?.userId,
    sendToPeers: (peers, count, states) => io.serverSideEmit('botStates', peers, count, states),
  });
  return { store, audience, metrics, refuse: refuserCounting(metrics), bots, viewports, fanOut };
}

function closeSocketServer(io: HubServer): void {
  io.local.disconnectSockets(true);
  io.engine.close();
  io.of('/').adapter.close(); // stops reading the Redis stream (the HTTP server closes with Fastify)
}

/** Silence after which a bot is offline: the configured override, or the staff's setting. */
async function offlineTimeoutMs(ctx: AppContext): Promise<number> {
  const configured = ctx.config.realtime.offlineTimeoutMs;
  if (configured !== undefined) return configured;
  return (await getSettings(ctx)).botOfflineTimeoutSeconds * 1000;
}

/** Rooms whose watchers other nodes must know about: one bot's page, its journal, and the fleet map. */
function isSharedAudienceRoom(room: string): boolean {
  return room === rooms.admins || room.startsWith(rooms.bot('')) || rooms.hwidOfBotLog(room) !== undefined;
}
