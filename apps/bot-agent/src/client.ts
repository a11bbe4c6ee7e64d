import { EventEmitter } from 'node:events';
import {
  type AgentUpdate,
  type BotCommandKind,
  type BotReport,
  type BotSessionAnswer,
  type ClientToServerEvents,
  type ReleaseChannel,
  type ServerToClientEvents,
  SOCKET_CLIENT_OPTIONS,
} from '@bot/contracts';
import { io, type Socket } from 'socket.io-client';
import type { BotClientEvents } from './client-events.ts';
import { type CommandHandler, CommandRunner } from './commands.ts';
import { BotApiError, FATAL_CODES, REVOKING_CODES } from './errors.ts';
import { hashHwidComponents, type RawHwidComponents } from './hwid.ts';
import { LeaseVerifier, type LeaseVerifierOptions, type VerifiedLease } from './lease.ts';
import { LeaseKeeper, type SetTimer } from './lease-keeper.ts';
import { AgentLog, type AgentLogger } from './log.ts';
import { requestLease, requestSession } from './platform-api.ts';
import { reconnectionDelay } from './reconnection.ts';

export type { BotClientEvents } from './client-events.ts';
export { BotApiError } from './errors.ts';
export { reconnectionDelay } from './reconnection.ts';

export interface BotClientOptions {
  /** Server base URL, e.g. `http://127.0.0.1:3000` (the API is under `/api`, the socket under `/socket.io`). */
  serverUrl: string;
  /** The user's bot access key (shown in their account page). */
  accessKey: string;
  /** Hardware id of this PC. */
  hwid: string;
  /**
   * The raw values of this PC's parts (`readMachineComponents()` reads them on Linux): the SDK sends
   * only their HMACs under `productKey`, and the platform then recognises this PC after one part
   * changed (docs/licensing.md). Without them the hwid is the only component.
   */
  components?: RawHwidComponents;
  /** The product's key the components are hashed with (default `DEFAULT_HWID_PRODUCT_KEY`). */
  productKey?: string;
  /** Agent version (semver: `1.4.0`, `1.5.0-beta.1`). */
  version: string;
  /** The release channel this agent follows, for `updateAvailable` (default stable). */
  channel?: ReleaseChannel;
  /**
   * A bot session opened earlier (reused until the server refuses it), with the lease it came with
   * when the agent kept it: verified offline, it spares a renewal at start.
   */
  session?: { token: string; expiresAt: string; lease?: string };
  /** The last report is sent again after this much silence, so the server keeps the bot online. */
  keepAliveMs?: number;
  /** The platform's public key set shipped with the agent (refreshed from the server when online). */
  keys?: LeaseVerifierOptions['keys'];
  /** The clock the lease checks use, and the timer their renewals wait on (tests move both). */
  now?: () => number;
  setTimer?: SetTimer;
  /** The latest time this agent saw, stored between runs, and where to store it. */
  lastSeenAt?: number;
  onLastSeen?: (at: number) => void;
  /**
   * Patterns removed from the log before it leaves the PC (decision 209), besides the access key,
   * the session token, the lease and anything shaped like a token, always removed.
   */
  redact?: readonly RegExp[];
}

export interface BotClient {
  /** `POST /api/bot/sessions`: binds the hwid on first use; answers the token and the whitelist. */
  openSession(): Promise<BotSessionAnswer>;
  /** Opens a session when needed, connects and authenticates; resolves once authenticated. */
  connect(): Promise<void>;
  /** Sends the bot's state (accounts, positions, stats). False when not connected (kept for later). */
  report(report: BotReport): boolean;
  /** Closes the connection; no reconnection afterwards. */
  stop(): Promise<void>;
  /** Drops the connection and connects again (a `restart` command, after its result is sent). */
  reconnect(): void;
  /**
   * Runs remote commands of this kind (decision 208): each is acknowledged on receipt, run once per
   * id, and its outcome sent (the handler's `{ok: false, message}` or a throw: failed).
   */
  onCommand<K extends BotCommandKind>(kind: K, handler: CommandHandler<K>): void;
  /**
   * The agent's log ("Journal du bot", decision 209): the last lines are kept, and they stream to
   * the platform only while someone reads the journal. Secrets are removed as lines are written.
   */
  readonly log: AgentLogger;
  readonly isConnected: boolean;
  /** Game accounts the server accepts for this bot (from the last session opened). */
  readonly whitelist: readonly string[];
  /** The newer build the server told of when the last session opened, or null. */
  readonly update: AgentUpdate | null;
  /** The verified lease the agent runs on (null before the first session). */
  readonly lease: VerifiedLease | null;
  /** The hwid this PC is bound as: its own, or the bound one its components matched (decision 906). */
  readonly hwid: string;
  /** `POST /api/bot/lease`: a fresh lease for the current session, verified before it is used. */
  renewLease(): Promise<VerifiedLease>;
  /** Checks the lease held against the keys and the clock (offline); stops the agent when it fails. */
  checkLease(): Promise<VerifiedLease>;
  on<K extends keyof BotClientEvents>(event: K, listener: (...args: BotClientEvents[K]) => void): void;
  off<K extends keyof BotClientEvents>(event: K, listener: (...args: BotClientEvents[K]) => void): void;
}

type AgentSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The reference bot agent SDK: one instance per PC (hwid). */
export function createBotClient(options: BotClientOptions): BotClient {
  const serverUrl = options.serverUrl.replace(/\/+$/, '');
  const emitter = new EventEmitter();
  emitter.on('error', () => {}); // errors are reported, never thrown at the event loop
  let session = options.session;
  let whitelist: string[] = [];
  let update: AgentUpdate | null = null;
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
  const commands = new CommandRunner({
    ack: (id) => void socket?.emit('bot_command_ack', { id }),
    result: (result) =>
      isAuthenticated && socket !== undefined && !!socket.emit('bot_command_result', result),
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
    send: (batch) => isAuthenticated && socket !== undefined && !!socket.emit('bot_log', batch),
    now: clock,
  });
  const components = options.components
    ? hashHwidComponents(options.components, options.productKey)
    : undefined;
  // Until a session answers otherwise, the PC is known by its own hwid.
  let boundHwid = options.hwid;
  const verifier = new LeaseVerifier({
    get hwid() {
      return boundHwid;
    },
    keys: options.keys,
    serverUrl,
    now: clock,
    lastSeenAt: options.lastSeenAt,
    onLastSeen: options.onLastSeen,
  });

  const leases = new LeaseKeeper({
    verifier,
    now: clock,
    setTimer: options.setTimer,
    renew: async () => {
      if (!session) throw new Error('no bot session');
      try {
        return await requestLease(serverUrl, { token: session.token, hwid: boundHwid });
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
    });
    session = { token: body.token, expiresAt: body.expiresAt };
    if (body.hwid) boundHwid = body.hwid;
    if (body.lease) await leases.accept(body.lease);
    whitelist = body.whitelist ?? [];
    update = body.update ?? null;
    if (update) emitter.emit('updateAvailable', update);
    return body;
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
    socket?.emit('bot_update', isPaused ? { ...report, paused: true } : report);
    lastSentAt = Date.now();
  }

  async function connect(): Promise<void> {
    if (isStopped) throw new Error('client stopped');
    if (socket) return;
    if (!hasUsableSession()) await openSession();
    else if (!leases.current) await takeStoredLeaseOrRenew();
    const current: AgentSocket = io(serverUrl, { ...SOCKET_CLIENT_OPTIONS, autoConnect: false });
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
      // A revoked signing key: a lease it signed is replaced at once (the socket stays open).
      if (body.kid) return void leases.keyRevoked(body.kid, error);
      revoke(error);
      fail(error);
    });
    current.on('connect_error', (error) => emitter.emit('error', error));
    current.on('bot_command', (command) => commands.receive(command));
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
    log,
    get isConnected() {
      return isAuthenticated;
    },
    get whitelist() {
      return whitelist;
    },
    get update() {
      return update;
    },
    get lease() {
      return leases.current;
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
