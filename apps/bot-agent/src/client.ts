import { EventEmitter } from 'node:events';
import {
  type AgentUpdate,
  type BotReport,
  type BotSessionAnswer,
  type ClientToServerEvents,
  PROTOCOL_VERSION,
  type ServerToClientEvents,
  SOCKET_CLIENT_OPTIONS,
} from '@bot/contracts';
import { io, type Socket } from 'socket.io-client';
import { type AnsweredEvent, sendAnswered } from './answers.ts';
import type { BotClient, BotClientOptions } from './client-types.ts';
import { CommandRunner } from './commands.ts';
import { BotApiError, FATAL_CODES, REVOKING_CODES } from './errors.ts';
import { hashHwidComponents } from './hwid.ts';
import { entitlementsAt, LeaseVerifier } from './lease.ts';
import { LeaseKeeper } from './lease-keeper.ts';
import { AgentLog } from './log.ts';
import { requestDeferral, requestLease, requestSession } from './platform-api.ts';
import { reconnectionDelay, useSpreadBackoff } from './reconnection.ts';
import { assertSecureUrl, KeyTrust } from './trust.ts';
import { AgentUpdates } from './updates.ts';

export type { AnsweredEvent, MessageRefusal } from './answers.ts';
export type { BotClientEvents } from './client-events.ts';
export type { BotClient, BotClientOptions } from './client-types.ts';
export { BotApiError } from './errors.ts';

type AgentSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The reference bot agent SDK: one instance per PC (hwid). */
export function createBotClient(options: BotClientOptions): BotClient {
  const serverUrl = options.serverUrl.replace(/\/+$/, '');
  assertSecureUrl(serverUrl, options.allowInsecureHttp);
  const emitter = new EventEmitter();
  emitter.on('error', () => {}); // errors are reported, never thrown at the event loop
  let session = options.session;
  let whitelist: string[] = [];
  /** Told with the first session only: the previous run's crash (decision 910). */
  let untoldCrash = options.lastCrash;
  let socket: AgentSocket | undefined;
  let isAuthenticated = false;
  let isStopped = false;
  let lastReport: BotReport | undefined;
  let lastSentAt = 0;
  let keepAlive: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryAttempt = 0;
  let lastRefusal: BotApiError | undefined;
  let connectWaiter: { resolve: () => void; reject: (error: Error) => void } | undefined;
  let toldRevoked = false;
  let isPaused = false; // by a remote command: reports (keep-alives too) carry `paused: true`
  /** Sends a message the server answers; a refusal is told as `refused` (decision 923). */
  const answered = <E extends AnsweredEvent>(event: E, payload: Parameters<ClientToServerEvents[E]>[0]) => {
    if (!socket) return false;
    sendAnswered(socket, event, payload, (refusal) => emitter.emit('refused', refusal));
    return true;
  };
  const commands = new CommandRunner({
    ack: (id) => void answered('bot_command_ack', { id }),
    result: (result) => isAuthenticated && answered('bot_command_result', result),
    // Reports say `paused` from a pause that succeeded to a resume; the last one goes again at once.
    ran: ({ kind }, { ok }) => {
      if (!ok || (kind !== 'pause' && kind !== 'resume')) return;
      isPaused = kind === 'pause';
      if (isAuthenticated && lastReport) send(lastReport);
    },
  });
  const clock = options.now ?? Date.now;
  const log = new AgentLog({
    secrets: () => [options.accessKey, session?.token, session?.lease, leases.current?.token],
    redact: options.redact,
    send: (batch) => isAuthenticated && answered('bot_log', batch),
    now: clock,
  });
  const components = options.components
    ? hashHwidComponents(options.components, options.productKey)
    : undefined;
  // Until a session answers otherwise, the PC is known by its own hwid.
  let boundHwid = options.hwid;
  // The root of trust (decision 912): keys come only from a set the pinned root signed.
  const trust = new KeyTrust({
    trustRoot: options.trustRoot,
    keySet: options.keySet,
    onKeySet: options.onKeySet,
    serverUrl,
    now: clock,
  });
  const verifier = new LeaseVerifier({
    hwid: options.hwid,
    get boundHwid() {
      return boundHwid;
    },
    trust,
    now: clock,
    lastSeenAt: options.lastSeenAt,
    onLastSeen: options.onLastSeen,
  });

  const updates = new AgentUpdates({
    keys: () => trust.keysFor('release'),
    refreshKeys: () => trust.refresh(),
    now: clock,
    runningVersion: options.version,
    highestTrustedVersion: options.highestTrustedVersion,
    onTrustedVersion: options.onTrustedVersion,
    allowInsecureHttp: options.allowInsecureHttp,
    defer: (version, minutes) => {
      if (!session) return Promise.reject(new Error('no bot session'));
      return requestDeferral(serverUrl, { token: session.token, hwid: boundHwid, version, minutes });
    },
  });

  const leases = new LeaseKeeper({
    verifier,
    now: clock,
    setTimer: options.setTimer,
    renew: async () => {
      if (!session) throw new Error('no bot session');
      try {
        const renewed = await requestLease(serverUrl, { token: session.token, hwid: boundHwid });
        // The renewal extended the session (docs/protocol.md, "The bot session").
        if (renewed.expiresAt) session = { token: session.token, expiresAt: renewed.expiresAt };
        return renewed.lease;
      } catch (error) {
        // An ended session (expired, another PC took over the key...) is replaced: its answer carries a lease.
        if (error instanceof BotApiError && error.code === 'BOT_SESSION_INVALID')
          return (await openSession()).lease;
        throw error;
      }
    },
    isFatal: (error) => error instanceof BotApiError && FATAL_CODES.has(error.code),
    onRenewed: (lease) => emitter.emit('leaseRenewed', lease),
    onExpiring: (lease) => emitter.emit('leaseExpiring', lease),
    onRevoked: (error) => revoke(error as BotApiError),
    onError: (error) => emitter.emit('error', error),
    onStop: (error) => fail(error as BotApiError),
    stopError: (message, code) => new BotApiError(message, code, 0),
  });

  async function openSession(): Promise<BotSessionAnswer> {
    const body = await requestSession(serverUrl, {
      accessKey: options.accessKey,
      hwid: options.hwid,
      ...(components && Object.keys(components).length > 0 ? { components } : {}),
      version: options.version,
      channel: options.channel ?? 'stable',
      protocolVersion: PROTOCOL_VERSION,
      ...(untoldCrash ? { lastCrash: untoldCrash } : {}),
    });
    untoldCrash = undefined;
    // The answer's hwid is not signed: it becomes this PC's id only with a lease that names it and,
    // when it is not this PC's own, this PC's own beside it (LEASE_OTHER_PC: a proxy passing another
    // PC's lease off as this one's). An answer without a lease is refused (LEASE_MALFORMED).
    const previousHwid = boundHwid;
    boundHwid = body.hwid || options.hwid;
    try {
      await leases.accept(body.lease ?? '');
    } catch (error) {
      boundHwid = previousHwid;
      throw error;
    }
    session = { token: body.token, expiresAt: body.expiresAt };
    whitelist = body.whitelist ?? [];
    if (body.update) await offerUpdate(body.update);
    return body;
  }

  /** An update is told only once its signed manifest verifies; a refused one is an `error`. */
  async function offerUpdate(offer: AgentUpdate): Promise<void> {
    try {
      emitter.emit('updateAvailable', await updates.accept(offer));
    } catch (error) {
      emitter.emit('error', error as Error);
    }
  }

  /** The lease kept with the stored session when it still verifies; a renewal otherwise. */
  async function takeStoredLeaseOrRenew(): Promise<void> {
    const stored = options.session?.lease;
    if (
      stored &&
      (await leases.accept(stored).then(
        () => true,
        () => false,
      ))
    )
      return;
    await leases.obtain();
  }

  function hasUsableSession(): boolean {
    return session !== undefined && new Date(session.expiresAt).getTime() > Date.now() + 60_000;
  }

  function retryDelay(): number {
    const delay = reconnectionDelay(retryAttempt);
    retryAttempt += 1;
    return delay;
  }

  function settle(error?: Error): void {
    const waiter = connectWaiter;
    connectWaiter = undefined;
    if (!waiter) return;
    if (error) waiter.reject(error);
    else waiter.resolve();
  }

  /** Tells `leaseRevoked` once, when there was a lease to revoke. */
  function revoke(error: BotApiError): void {
    if (toldRevoked || !leases.current) return;
    toldRevoked = true;
    emitter.emit('leaseRevoked', error);
  }

  function fail(error: BotApiError): void {
    if (isStopped) return;
    if (REVOKING_CODES.has(error.code)) revoke(error);
    isStopped = true;
    emitter.emit('fatal', error);
    settle(error);
    void stop();
  }

  function scheduleReconnect(): void {
    if (isStopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void reconnect();
    }, retryDelay());
  }

  /** After the server closed the socket itself: a fresh session if it was refused, then connect. */
  async function reconnect(): Promise<void> {
    if (isStopped || !socket) return;
    try {
      if (!hasUsableSession() || lastRefusal?.code === 'BOT_SESSION_INVALID') await openSession();
      lastRefusal = undefined;
      socket.connect();
    } catch (error) {
      if (error instanceof BotApiError && FATAL_CODES.has(error.code)) fail(error);
      else {
        emitter.emit('error', error as Error);
        scheduleReconnect();
      }
    }
  }

  function authenticate(current: AgentSocket): void {
    if (!session) return;
    current.emit('authenticate', { type: 'bot', token: session.token, hwid: boundHwid }, (answer) => {
      if (!answer.ok) return; // auth_error follows and closes the socket
      isAuthenticated = true;
      retryAttempt = 0;
      emitter.emit('authenticated');
      settle();
      commands.flush();
      if (lastReport) send(lastReport);
    });
  }

  function send(report: BotReport): void {
    answered('bot_update', isPaused ? { ...report, paused: true } : report);
    lastSentAt = Date.now();
  }

  async function connect(): Promise<void> {
    if (isStopped) throw new Error('client stopped');
    if (socket) return;
    if (!hasUsableSession()) await openSession();
    else if (!leases.current) await takeStoredLeaseOrRenew();
    const current: AgentSocket = io(serverUrl, { ...SOCKET_CLIENT_OPTIONS, autoConnect: false });
    useSpreadBackoff(current.io);
    socket = current;
    current.on('connect', () => authenticate(current));
    current.on('auth_error', (body) => {
      lastRefusal = new BotApiError(body.error, body.code, 0);
      if (FATAL_CODES.has(body.code)) fail(lastRefusal);
    });
    current.on('disconnect', (reason) => {
      // Only a lost authenticated connection is a disconnection: a socket refused before it was
      // authenticated never counted as connected (counting it made online counters drift).
      const wasAuthenticated = isAuthenticated;
      isAuthenticated = false;
      // The server asks again (bot_log_start) when the new connection's journal is read.
      log.stop();
      if (wasAuthenticated) emitter.emit('disconnected', reason);
      // The manager reconnects by itself after network failures, not after a server-side close.
      if (reason === 'io server disconnect' && !isStopped) scheduleReconnect();
    });
    current.on('lease_revoked', (body) => {
      const error = new BotApiError(body.error, body.code, 0);
      // A revoked signing key: a lease it signed is replaced at once (the socket stays open). Only a
      // statement signed by a key of the set counts: a forged one is ignored (decision 912).
      if (body.kid) {
        trust.revoke(body.statement ?? '').then(
          (kid) => leases.keyRevoked(kid, error),
          (refusal: Error) => emitter.emit('error', refusal),
        );
        return;
      }
      revoke(error);
      fail(error);
    });
    current.on('connect_error', (error) => emitter.emit('error', error));
    // Its whitelist or entitlements changed: a fresh lease, verified like any (decision 923).
    current.on('lease_renewed', ({ lease, whitelist: names }) => {
      leases.accept(lease).then(
        () => {
          whitelist = names;
        },
        (refusal: Error) => emitter.emit('error', refusal),
      );
    });
    current.on('bot_command', (command) => commands.receive(command));
    current.on('update_available', (offer) => void offerUpdate(offer));
    current.on('bot_log_start', () => log.start());
    current.on('bot_log_stop', () => log.stop());
    const authenticated = new Promise<void>((resolve, reject) => {
      connectWaiter = { resolve, reject };
    });
    current.connect();
    const keepAliveMs = options.keepAliveMs ?? 10_000;
    keepAlive = setInterval(
      () => {
        if (isAuthenticated && lastReport && Date.now() - lastSentAt >= keepAliveMs) send(lastReport);
      },
      Math.max(250, Math.floor(keepAliveMs / 2)),
    );
    keepAlive.unref();
    await authenticated;
  }

  function report(next: BotReport): boolean {
    lastReport = next;
    if (!isAuthenticated) return false;
    send(next);
    return true;
  }

  async function stop(): Promise<void> {
    isStopped = true;
    clearInterval(keepAlive);
    clearTimeout(retryTimer);
    leases.stop();
    log.stop();
    isAuthenticated = false;
    socket?.disconnect();
    settle(new Error('client stopped'));
  }

  return {
    openSession,
    connect,
    report,
    stop,
    reconnect: () => {
      if (isStopped || !socket) return;
      socket.disconnect();
      socket.connect();
    },
    onCommand: (kind, handler) => commands.on(kind, handler),
    downloadUpdate: () => updates.download(),
    deferUpdate: (minutes) => updates.defer(minutes),
    log,
    get isConnected() {
      return isAuthenticated;
    },
    get whitelist() {
      return whitelist;
    },
    get update() {
      return updates.current;
    },
    get lease() {
      return leases.current;
    },
    get entitlements() {
      return leases.current ? entitlementsAt(leases.current, clock()) : [];
    },
    get hwid() {
      return boundHwid;
    },
    renewLease: () => leases.renew(),
    checkLease: () => leases.check(),
    on: (event, listener) => void emitter.on(event, listener as (...args: unknown[]) => void),
    off: (event, listener) => void emitter.off(event, listener as (...args: unknown[]) => void),
  };
}
