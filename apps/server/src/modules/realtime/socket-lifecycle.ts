import { SOCKET_EVENTS } from '@bot/contracts';
import type { Logger } from 'pino';
import type { RealtimeConfig } from '../../config.ts';
import { runInBackground } from '../../core/background.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { acknowledge } from './agent-acks.ts';
import type { Audience } from './audience.ts';
import type { BotCommandRelay } from './bot-commands.ts';
import type { BotLogRelay } from './bot-log-relay.ts';
import type { BotPresence } from './bot-presence.ts';
import type { BotSessions } from './bot-sessions.ts';
import type { BotStateStore } from './bot-state-store.ts';
import type { MapViewports } from './map-viewports.ts';
import type { HubSocket, Refusal, RefuseSocket, SocketData } from './realtime.types.ts';
import { rooms } from './rooms.ts';
import {
  type AuthenticationSlots,
  isRefusal,
  type SocketAuthenticator,
  type SocketIdentity,
} from './socket-auth.ts';
import { initialGuardState, isFlooding } from './socket-guards.ts';
import { admitStaffMap, type StaffFeedDeps } from './staff-feed.ts';

/** Longest our own checks of an `authenticate` may take before the socket is dropped. */
const VERIFICATION_TIMEOUT_MS = 120_000;

interface LifecycleDeps {
  config: RealtimeConfig;
  log: Logger;
  authenticator: SocketAuthenticator;
  slots: AuthenticationSlots;
  refuse: RefuseSocket;
  store: BotStateStore;
  audience: Audience;
  viewports: MapViewports;
  staffFeed: StaffFeedDeps;
  presence: BotPresence;
  bots: BotSessions;
  commands: BotCommandRelay;
  botLog: BotLogRelay;
}

/**
 * One socket's life on this node: its guards from the first message, one `authenticate` within
 * the time allowed, the rooms it then joins (browsers here, agents through `BotSessions`), and
 * what its disconnection ends.
 */
export class SocketLifecycle {
  private isClosed = false;

  constructor(private readonly deps: LifecycleDeps) {}

  /** Shutdown: the sockets closed next are not announced offline (they reconnect elsewhere). */
  close(): void {
    this.isClosed = true;
  }

  readonly onConnection = (socket: HubSocket): void => {
    const { config, refuse } = this.deps;
    const meta = (socket.conn as unknown as { meta?: { queryHwid?: string; ip: string } }).meta;
    const now = Date.now();
    socket.data = {
      ip: meta?.ip ?? socket.handshake.address,
      queryHwid: meta?.queryHwid,
      connectedAt: new Date(now).toISOString(),
      ...initialGuardState(config, now),
    } satisfies SocketData;
    // Every message counts, whatever its event; counted on the engine socket (cheaper than a
    // Socket.IO middleware, which allocates per packet).
    socket.conn.on('data', () => {
      if (isFlooding(socket.data, config)) refuse(socket, 'SOCKET_FLOOD');
    });
    const stopAuthTimer = this.handleAuthentication(socket);
    socket.on('disconnect', () => {
      stopAuthTimer();
      if (socket.data.feed === 'viewport') this.deps.viewports.remove(socket.id);
      this.left(socket);
      if (!this.isClosed)
        runInBackground(this.deps.log, 'bot hors ligne', () => this.deps.presence.disconnected(socket));
    });
    // An agent's messages are answered when it passes a callback (decision 923, agent-acks.ts).
    socket.on(SOCKET_EVENTS.botUpdate, (payload: unknown, ack?: unknown) =>
      acknowledge(this.deps.log, ack, this.deps.bots.report(socket, payload)),
    );
    socket.on(SOCKET_EVENTS.mapViewport, (payload: unknown) =>
      this.deps.viewports.changeFrom(socket, payload),
    );
    socket.on(SOCKET_EVENTS.botCommandAck, (payload: unknown, ack?: unknown) =>
      acknowledge(this.deps.log, ack, this.deps.commands.ack(socket, payload)),
    );
    socket.on(SOCKET_EVENTS.botCommandResult, (payload: unknown, ack?: unknown) =>
      acknowledge(this.deps.log, ack, this.deps.commands.result(socket, payload)),
    );
    socket.on(SOCKET_EVENTS.botLog, (payload: unknown, ack?: unknown) =>
      acknowledge(this.deps.log, ack, this.deps.botLog.received(socket, payload)),
    );
  };

  /** A journal may stop streaming when its last reader leaves; a bot's stream ends with it. */
  private left(socket: HubSocket): void {
    const { kind, hwid } = socket.data;
    if (kind === 'log' && hwid) this.deps.botLog.viewerLeft(hwid);
    if (kind === 'bot') this.deps.botLog.agentLeft(socket);
  }

  /** One `authenticate` per socket, in time; answers how to stop its timer (the socket left). */
  private handleAuthentication(socket: HubSocket): () => void {
    const { config, refuse, log } = this.deps;
    const armAuthTimer = (delayMs: number) => {
      // Checked after the loop's next poll for input: when the loop was busy (a reconnect storm),
      // timers run before the sockets are read, and an `authenticate` that arrived in time would
      // otherwise be refused. A timer replaced meanwhile (the peer was on time) is stale.
      const timer: NodeJS.Timeout = setTimeout(() => {
        setImmediate(() => {
          if (timer === authTimer && !socket.data.kind) refuse(socket, 'AUTH_TIMEOUT');
        });
      }, delayMs);
      timer.unref();
      return timer;
    };
    let isAuthenticating = false;
    let authTimer: NodeJS.Timeout | undefined = armAuthTimer(config.authTimeoutMs);
    socket.on(SOCKET_EVENTS.authenticate, (payload: unknown, ack?: unknown) => {
      if (isAuthenticating || socket.data.kind) return; // one authentication per socket
      isAuthenticating = true;
      // The peer was on time; our own checks may queue behind others (a reconnect storm): allow them longer.
      clearTimeout(authTimer);
      authTimer = armAuthTimer(VERIFICATION_TIMEOUT_MS);
      const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : undefined;
      this.deps.slots
        .run(() => this.authenticate(socket, payload))
        .then((refused) => {
          clearTimeout(authTimer);
          authTimer = undefined;
          if (refused) {
            reply?.({ ok: false, ...refused });
            refuse(socket, refused.code, refused.details);
          } else {
            reply?.({ ok: true });
          }
        })
        .catch((error: unknown) => {
          log.error({ err: error }, 'authentification d’un socket en échec');
          // An outage is temporary: the peer reconnects later (SERVICE_UNAVAILABLE is not final).
          refuse(socket, isDatabaseUnavailable(error) ? 'SERVICE_UNAVAILABLE' : 'INTERNAL');
        });
    });
    return () => clearTimeout(authTimer);
  }

  /** Answers a refusal, or undefined once the socket joined its rooms (or left meanwhile). */
  private async authenticate(socket: HubSocket, payload: unknown): Promise<Refusal | undefined> {
    if (!socket.connected) return undefined; // gone while waiting for its turn
    const identity = await this.deps.authenticator.authenticate(payload, socket.data.queryHwid);
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
    if (identity.kind === 'bot') {
      await this.deps.bots.admit(socket, identity);
      // What waits for the bot, after `authenticated` (the agent listens from its first connection).
      runInBackground(this.deps.log, 'commandes en attente du bot', () =>
        this.deps.commands.admitted(socket),
      );
      this.deps.botLog.agentAdmitted(socket);
    } else if (identity.kind === 'log') {
      // Not a page of the site: no settings broadcasts, not counted among the viewers online.
      await socket.join([rooms.session(identity.sessionId), rooms.user(identity.userId)]);
      await this.deps.botLog.viewerAdmitted(socket, identity.hwid as string);
    } else await this.admitBrowser(socket, identity);
    return undefined;
  }

  private async admitBrowser(
    socket: HubSocket,
    identity: Exclude<SocketIdentity, { kind: 'bot' }>,
  ): Promise<void> {
    await socket.join([rooms.session(identity.sessionId), rooms.user(identity.userId), rooms.browsers]);
    if (identity.kind === 'admin') {
      await admitStaffMap(this.deps.staffFeed, socket, identity.viewport);
      return;
    }
    const hwid = identity.hwid as string;
    await socket.join(rooms.bot(hwid));
    this.deps.audience.joined(rooms.bot(hwid));
    socket.emit(SOCKET_EVENTS.authenticated, { type: 'client', hwid });
    const state = await this.deps.store.get(hwid);
    if (state) socket.emit(SOCKET_EVENTS.botUpdate, state);
  }
}
