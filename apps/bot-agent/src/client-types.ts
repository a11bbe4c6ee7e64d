import type {
  BotCommandKind,
  BotPermission,
  BotReport,
  BotSessionAnswer,
  ReleaseChannel,
} from '@bot/contracts';
import type { JWK } from 'jose';
import type { BotClientEvents } from './client-events.ts';
import type { CommandHandler } from './commands.ts';
import type { RawHwidComponents } from './hwid.ts';
import type { VerifiedLease } from './lease.ts';
import type { SetTimer } from './lease-keeper.ts';
import type { AgentLogger } from './log.ts';
import type { VerifiedUpdate } from './updates.ts';

// The SDK's public surface: what an agent passes to `createBotClient` and what it gets back.

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
  /**
   * The vendor's root public key (an Ed25519 JWK), built into the agent: required, no default
   * (docs/licensing.md, decision 912). The agent trusts a lease or release key only when a key set
   * this root signed names it; `npm run keys:root` prints it.
   */
  trustRoot: JWK;
  /**
   * What `onKeySet` last gave, stored between runs (a bare signed set stored by an older agent works
   * too): an offline start verifies its lease with it, and a key revoked before the restart stays
   * revoked whatever a fake platform serves (docs/licensing.md).
   */
  keySet?: string;
  /**
   * Told each time what the agent trusts changes: a newer key set (root-signed, higher version) or a
   * key revocation it verified. Store the string as it is (the signed set and the signed revocations)
   * and give it back as `keySet`.
   */
  onKeySet?: (stored: string) => void;
  /** The highest version this agent trusted, stored between runs: an older manifest is refused. */
  highestTrustedVersion?: string;
  onTrustedVersion?: (version: string) => void;
  /**
   * Accept `http://` to a host other than this machine (a test bench on its own network). Default
   * refused: anyone on the path of a plain connection could answer in the platform's name.
   */
  allowInsecureHttp?: boolean;
  /** The clock the lease checks use, and the timer their renewals wait on (tests move both). */
  now?: () => number;
  setTimer?: SetTimer;
  /** The latest time this agent saw, stored between runs, and where to store it. */
  lastSeenAt?: number;
  onLastSeen?: (at: number) => void;
  /**
   * The previous run ended in a crash (the agent's supervisor knows): told with the next session,
   * counted against that version's rollout (decision 910).
   */
  lastCrash?: { version: string; at: string; message: string };
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
  /**
   * The update the platform offers (a newer build, or the one to go back to when the running build
   * was withdrawn: `rollback`), kept only once its signed manifest verified; null otherwise.
   */
  readonly update: VerifiedUpdate | null;
  /** The offered build's bytes, checked against its manifest's size and SHA-256 (`UpdateError` otherwise). */
  downloadUpdate(): Promise<Buffer>;
  /** "Pas maintenant, dans N min": the platform records it and staff see it. */
  deferUpdate(minutes: number): Promise<{ until: string }>;
  /** The verified lease the agent runs on (null before the first session). */
  readonly lease: VerifiedLease | null;
  /**
   * What the lease entitles the bot to now: each entitlement stops at its own end (a package that
   * ended), even while the lease runs on for another one (docs/licensing.md).
   */
  readonly entitlements: readonly BotPermission[];
  /** The hwid this PC is bound as: its own, or the bound one its components matched (decision 906). */
  readonly hwid: string;
  /** `POST /api/bot/lease`: a fresh lease for the current session, verified before it is used. */
  renewLease(): Promise<VerifiedLease>;
  /** Checks the lease held against the keys and the clock (offline); stops the agent when it fails. */
  checkLease(): Promise<VerifiedLease>;
  on<K extends keyof BotClientEvents>(event: K, listener: (...args: BotClientEvents[K]) => void): void;
  off<K extends keyof BotClientEvents>(event: K, listener: (...args: BotClientEvents[K]) => void): void;
}
