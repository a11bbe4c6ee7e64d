import path from 'node:path';
import { z } from 'zod';
import { parseAddressList, parseTrustProxy } from './core/env-addresses.ts';
import { presentWithSecretsFromFiles } from './core/env-files.ts';
import { isLoopbackInstallation } from './core/installation.ts';
import type { LoadConfig } from './core/load-monitor.ts';
import {
  type MasterKeySource,
  MISSING_MASTER_KEY,
  masterKeySource,
  masterKeyText,
} from './core/master-key.ts';
import { DEFAULT_SDK_DIST_DIR, DEFAULT_WEB_DIST_DIR } from './core/paths.ts';
import { StartupError } from './core/startup-errors.ts';

/** docs/operations.md (Configuration): the environment, parsed once. Nothing else reads process.env. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Unset: `http://localhost:<PORT>` (loadConfig), so links work when only PORT is set. */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  /** The master key that seals secrets at rest (core/master-key.ts): a file holding it, or the value. */
  MASTER_KEY_FILE: z.string().min(1).optional(),
  MASTER_KEY: masterKeyText.optional(),
  REDIS_URL: z.string().url().optional(),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(3_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** docs/capacity.md: the event-loop utilisation (0-1) at which a node calls itself overloaded, and under which it no longer does. */
  LOAD_ENTER_UTILIZATION: z.coerce.number().min(0).max(1).default(0.9),
  LOAD_EXIT_UTILIZATION: z.coerce.number().min(0).max(1).default(0.7),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
  ADMIN_USERNAME: z.string().min(3).max(32).default('admin'),
  ADMIN_PASSWORD: z.string().min(8).max(128).optional(),
  ADMIN_EMAIL: z.string().email().default('admin@localhost'),
  METRICS_TOKEN: z.string().min(16, 'au moins 16 caractères').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .transform((value, context) => parseTrustProxy(value, context))
    .optional(),
  /** Addresses exempt from the socket handshake limit (the simulator, benchmarks); none by default. */
  SOCKET_HANDSHAKE_ALLOWLIST: z
    .string()
    .transform((value, context) => parseAddressList(value, context))
    .optional(),
  WEB_DIST_DIR: z.string().optional(),
  SDK_DIST_DIR: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Stripe's API elsewhere than api.stripe.com (a proxy; tests use a local stand-in). */
  STRIPE_API_URL: z.string().url().optional(),
  /** Discord's API elsewhere than discord.com (tests use a local stand-in). */
  DISCORD_API_URL: z.string().url().optional(),
  /** Who sells, as printed on receipts (docs/decisions/305-abandoned-checkouts-and-receipts.md). */
  SELLER_NAME: z.string().trim().min(1).optional(),
  SELLER_ADDRESS: z.string().trim().min(1).optional(),
  SELLER_COMPANY_ID: z.string().trim().min(1).optional(),
  SELLER_VAT_NUMBER: z.string().trim().min(1).optional(),
  SELLER_VAT_RATE: z.coerce.number().min(0).max(100).optional(),
  /** `production` makes an installation public whatever its addresses (core/installation.ts). */
  NODE_ENV: z.string().optional(),
  /** Which payment provider takes checkouts; unset: Stripe with its keys, the sandbox on loopback only. */
  PAYMENT_PROVIDER: z.enum(['stripe', 'sandbox']).optional(),
});

export interface RateLimitRule {
  /** Number of attempts allowed in the window. */
  max: number;
  windowMs: number;
}

export interface AppConfig {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Where the master key sealing the secrets at rest comes from (core/master-key.ts): never DATA_DIR. */
  masterKey: MasterKeySource;
  /** PostgreSQL: how long to wait for a connection and for one statement before answering 503. */
  databaseTimeouts: { connectTimeoutMs: number; statementTimeoutMs: number };
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  admin: { username: string; password: string | undefined; email: string };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Bearer token of `GET /api/metrics`; unset: no metrics endpoint. */
  metricsToken: string | undefined;
  /**
   * Which peers may speak for the client in X-Forwarded-For: false (none), a hop count (the last n
   * proxies: 1 behind one nginx) or a list of proxy addresses / CIDRs. Never "everyone": a forged
   * leftmost address would bypass every per-address limit.
   */
  trustProxy: false | number | string[];
  /**
   * Source addresses or CIDRs the socket handshake limit does not count (SOCKET_HANDSHAKE_ALLOWLIST):
   * empty by default, so that a proxy making every client look local does not switch the limit off.
   */
  socketHandshakeAllowlist: string[];
  webDistDir: string;
  sdkDistDir: string;
  bodyLimitBytes: number;
  sessionTtlMs: number;
  botSessionTtlMs: number;
  activationTokenTtlMs: number;
  resetTokenTtlMs: number;
  /** The seller printed on receipts; the VAT rate (percent, prices include it) adds a VAT line. */
  seller: {
    name: string | undefined;
    address: string | undefined;
    companyId: string | undefined;
    vatNumber: string | undefined;
    vatRatePercent: number | undefined;
  };
  /** `NODE_ENV=production`: never a loopback installation, whatever its addresses. */
  production: boolean;
  /**
   * Loopback (a trial nobody else reaches) or public, and what a public one lacks (each a French
   * sentence naming the fix): app.ts refuses to start while any is left (core/installation.ts).
   */
  installation: { isLoopback: boolean; problems: string[] };
  /** Stripe when both keys are set; the sandbox payment provider otherwise (see `installation`). */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
  rateLimits: {
    /** Failed sign-ins of one account from one address (the lockout an attacker cannot cause). */
    loginPerAccountAndIp: RateLimitRule;
    /** Softer, account-wide: a distributed guess still meets a limit. */
    loginPerAccount: RateLimitRule;
    loginPerIp: RateLimitRule;
    register: RateLimitRule;
    /**
     * Mail-sending requests (resend activation, forgot password): per address, per (account,
     * address) and account-wide. Over any of them the mail is skipped quietly, same answer: a 429
     * told which e-mails have an account, and strangers' requests blocked the owner's.
     */
    resend: RateLimitRule;
    resendPerAccountAndIp: RateLimitRule;
    resendPerAccount: RateLimitRule;
    forgot: RateLimitRule;
    forgotPerAccountAndIp: RateLimitRule;
    forgotPerAccount: RateLimitRule;
    /** "Someone tried to register with your address" mails, per mailbox (decision 914). */
    registrationNotice: RateLimitRule;
    reset: RateLimitRule;
    activate: RateLimitRule;
    voucherGuess: RateLimitRule;
    botSession: RateLimitRule;
    /** Lease renewals of one bot session, and, far above, of one address (a fleet behind one NAT). */
    leaseRenewal: RateLimitRule;
    leaseRenewalPerIp: RateLimitRule;
    /** Socket.IO handshakes per source address, counted before any authentication work. */
    socketHandshake: RateLimitRule;
    /** Refused attempts of one user to watch a bot that is not theirs, before their sockets are cut. */
    watchRefusal: RateLimitRule;
    /**
     * Two-factor codes checked for one account from one address (sign-in, enrolment,
     * re-authentication): each new lockout of the pair waits twice as long as the last one.
     */
    secondFactor: RateLimitRule;
    /** Softer, account-wide: only a sustained attack from many addresses reaches it. */
    secondFactorPerAccount: RateLimitRule;
    /** Lockouts of one (account, address) pair, counted to double each wait (see `secondFactor`). */
    secondFactorLockouts: RateLimitRule;
    /** Test messages a user sends to their alert channels (`POST /me/alerts/test`), all channels together. */
    alertTest: RateLimitRule;
    /** Remote commands one user sends to bots (decision 208), all bots together. */
    botCommand: RateLimitRule;
  };
  /** Real-time hub timings and limits (modules/realtime); tests shorten them. */
  realtime: RealtimeConfig;
  /** Mail outbox worker: how often it looks for due mails, first retry delay (doubling), attempts. */
  mail: { pollMs: number; retryBaseMs: number; maxAttempts: number };
  /** Alerts (decision 902): evaluation period, quiet period after an incident, Discord outbox. */
  alerts: AlertsConfig;
  /** Remote commands (decision 208): how long one waits for the agent, the expiry sweep, per-bot cap. */
  commands: { ttlMs: number; sweepMs: number; maxPendingPerBot: number };
  /**
   * The bots' journals (decision 209): lines per second per bot and the burst above it, and how
   * often lines older than the retention setting are removed.
   */
  botLog: { linesPerSecond: number; burst: number; purgeEveryMs: number };
  /** When this node calls itself overloaded (core/load-monitor.ts, docs/capacity.md). */
  load: LoadConfig;
  /** Staged rollouts (decision 910): how often due steps and the bots' health are checked. */
  releases: { rolloutCheckMs: number };
}

interface AlertsConfig {
  evaluateEveryMs: number;
  /** After an incident closes, a new one on the same subject waits this long before alerting. */
  quietMs: number;
  discordApiUrl: string | undefined;
  discordPollMs: number;
  discordRetryBaseMs: number;
  discordMaxAttempts: number;
  /** How often notifications older than the retention setting are pruned (decision 907). */
  pruneEveryMs: number;
}

export interface RealtimeConfig {
  /** A socket must authenticate within this delay. */
  authTimeoutMs: number;
  /** Bot silence after which it is offline; undefined: the `botOfflineTimeoutSeconds` setting. */
  offlineTimeoutMs: number | undefined;
  /** How often the admin feed (batched `bot_update`) is flushed. */
  adminFlushMs: number;
  /**
   * Above this many online bots, a staff map that offers a viewport follows it instead of receiving
   * the whole fleet (decision 206: the full feed was measured fine at 10,000 bots, too big at 20,000).
   */
  fullFeedMaxBots: number;
  /** How often each node sends zoomed-out staff maps its per-cell counts. */
  mapCellsMs: number;
  /**
   * Most of a node's bots a zoomed-in staff map on the viewport feed gets one by one; an area holding
   * more gets that node's counts instead (decision 206).
   */
  mapMaxStates: number;
  /** How often buffered per-minute history is written to SQL. */
  historyFlushMs: number;
  /** Largest socket message accepted, in bytes. */
  maxMessageBytes: number;
  /** Bot updates accepted per second and socket (extra ones are dropped). */
  botUpdatesPerSecond: number;
  /** Messages a socket may send in 10 s before it is disconnected as a flood. */
  floodMessagesPer10s: number;
  /** How often open sockets are checked for expired sessions and expired permission grants. */
  expirySweepMs: number;
}

const DEFAULT_REALTIME: RealtimeConfig = {
  authTimeoutMs: 5_000,
  offlineTimeoutMs: undefined,
  adminFlushMs: 250,
  fullFeedMaxBots: 10_000,
  mapCellsMs: 1_000,
  mapMaxStates: 2_000,
  historyFlushMs: 15_000,
  maxMessageBytes: 16 * 1024,
  botUpdatesPerSecond: 4,
  floodMessagesPer10s: 200,
  expirySweepMs: 2_000,
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEFAULT_RATE_LIMITS: AppConfig['rateLimits'] = {
  loginPerAccountAndIp: { max: 10, windowMs: 15 * MINUTE },
  loginPerAccount: { max: 100, windowMs: 15 * MINUTE },
  loginPerIp: { max: 50, windowMs: 15 * MINUTE },
  register: { max: 10, windowMs: HOUR },
  resend: { max: 5, windowMs: 15 * MINUTE },
  resendPerAccountAndIp: { max: 3, windowMs: HOUR },
  // Account-wide: 34 addresses at 3 each before an owner's own request is skipped (7 reached 20).
  resendPerAccount: { max: 100, windowMs: HOUR },
  forgot: { max: 5, windowMs: 15 * MINUTE },
  forgotPerAccountAndIp: { max: 3, windowMs: HOUR },
  forgotPerAccount: { max: 100, windowMs: HOUR },
  registrationNotice: { max: 1, windowMs: 24 * HOUR },
  reset: { max: 10, windowMs: 15 * MINUTE },
  activate: { max: 20, windowMs: 15 * MINUTE },
  voucherGuess: { max: 20, windowMs: 15 * MINUTE },
  botSession: { max: 30, windowMs: MINUTE },
  leaseRenewal: { max: 10, windowMs: MINUTE },
  // A key revocation makes every agent of an address renew in the same second.
  leaseRenewalPerIp: { max: 3_000, windowMs: MINUTE },
  socketHandshake: { max: 120, windowMs: MINUTE },
  watchRefusal: { max: 10, windowMs: MINUTE },
  secondFactor: { max: 10, windowMs: 15 * MINUTE },
  secondFactorPerAccount: { max: 100, windowMs: HOUR },
  secondFactorLockouts: { max: 1_000_000, windowMs: 24 * HOUR },
  alertTest: { max: 5, windowMs: 15 * MINUTE },
  botCommand: { max: 30, windowMs: MINUTE },
};

/**
 * What a public installation was not told (docs/operations.md, "A public installation"): the trial
 * defaults would give offers away or sign as nobody's platform there. Thrown together by app.ts.
 */
function installationProblems(e: z.infer<typeof envSchema>, isLoopback: boolean): string[] {
  const problems: string[] = [];
  const hasStripe = Boolean(e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET);
  if (e.PAYMENT_PROVIDER === 'stripe' && !hasStripe)
    problems.push('PAYMENT_PROVIDER=stripe : définissez STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET.');
  if (!isLoopback && !hasStripe && e.PAYMENT_PROVIDER !== 'sandbox')
    problems.push(
      'Aucun moyen de paiement : définissez STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET, ou PAYMENT_PROVIDER=sandbox pour une installation d’essai (le bac à sable valide chaque commande sans paiement).',
    );
  // Every node must seal with the same key, and none may invent one (docs/operations.md).
  if (e.DATABASE_URL && !e.MASTER_KEY && !e.MASTER_KEY_FILE) problems.push(MISSING_MASTER_KEY);
  return problems;
}

/** Parses the environment; throws one error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty variables dropped, secrets read from their files (core/env-files.ts).
  const present = presentWithSecretsFromFiles(env);
  // Half a Stripe configuration would silently leave the sandbox (free test payments) on.
  const stripeBoth = envSchema.refine(
    (env) => Boolean(env.STRIPE_SECRET_KEY) === Boolean(env.STRIPE_WEBHOOK_SECRET),
    {
      message: 'STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET vont ensemble : définissez les deux ou aucun.',
      path: ['STRIPE_WEBHOOK_SECRET'],
    },
  );
  const parsed = stripeBoth
    .refine((env) => !(env.PAYMENT_PROVIDER === 'sandbox' && env.STRIPE_SECRET_KEY), {
      message: 'PAYMENT_PROVIDER=sandbox avec des clés Stripe : retirez les clés ou le choix du bac à sable.',
      path: ['PAYMENT_PROVIDER'],
    })
    .refine((env) => !(env.MASTER_KEY && env.MASTER_KEY_FILE), {
      message: 'MASTER_KEY et MASTER_KEY_FILE sont définis : gardez-en un seul.',
      path: ['MASTER_KEY'],
    })
    .safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`);
    throw new StartupError(
      `Configuration invalide : corrigez ces variables d’environnement puis relancez.\n${lines.join('\n')}`,
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const production = e.NODE_ENV === 'production';
  const isLoopback = isLoopbackInstallation({ publicUrl, host: e.HOST, production });
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    masterKey: masterKeySource({
      value: e.MASTER_KEY,
      file: e.MASTER_KEY_FILE,
      shared: Boolean(e.DATABASE_URL),
      dataDir,
    }),
    databaseTimeouts: {
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    admin: { username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD, email: e.ADMIN_EMAIL },
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    trustProxy: e.TRUST_PROXY ?? false,
    socketHandshakeAllowlist: e.SOCKET_HANDSHAKE_ALLOWLIST ?? [],
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? DEFAULT_WEB_DIST_DIR),
    sdkDistDir: path.resolve(e.SDK_DIST_DIR ?? DEFAULT_SDK_DIST_DIR),
    bodyLimitBytes: 64 * 1024,
    sessionTtlMs: 30 * 24 * HOUR,
    botSessionTtlMs: 24 * HOUR,
    activationTokenTtlMs: 48 * HOUR,
    resetTokenTtlMs: 30 * MINUTE,
    seller: {
      name: e.SELLER_NAME,
      address: e.SELLER_ADDRESS,
      companyId: e.SELLER_COMPANY_ID,
      vatNumber: e.SELLER_VAT_NUMBER,
      vatRatePercent: e.SELLER_VAT_RATE,
    },
    production,
    installation: { isLoopback, problems: installationProblems(e, isLoopback) },
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL }
        : undefined,
    rateLimits: DEFAULT_RATE_LIMITS,
    realtime: DEFAULT_REALTIME,
    mail: { pollMs: 5_000, retryBaseMs: 10_000, maxAttempts: 8 },
    alerts: {
      evaluateEveryMs: 30_000,
      quietMs: 15 * MINUTE,
      discordApiUrl: e.DISCORD_API_URL,
      discordPollMs: 5_000,
      discordRetryBaseMs: 5_000,
      discordMaxAttempts: 5,
      pruneEveryMs: 60 * MINUTE,
    },
    commands: { ttlMs: 15 * MINUTE, sweepMs: 10_000, maxPendingPerBot: 10 },
    botLog: { linesPerSecond: 5, burst: 20, purgeEveryMs: 60 * MINUTE },
    releases: { rolloutCheckMs: MINUTE },
    load: {
      sampleMs: 500,
      enterUtilization: e.LOAD_ENTER_UTILIZATION,
      exitUtilization: Math.min(e.LOAD_EXIT_UTILIZATION, e.LOAD_ENTER_UTILIZATION),
      samplesToEnter: 4,
      warmupMs: 15_000,
      enterOpenFiles: 0.9,
      exitOpenFiles: 0.85,
    },
  });
}
