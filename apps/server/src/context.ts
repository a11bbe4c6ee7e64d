import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './config.ts';
import type { BotActivity } from './core/bot-activity.ts';
import type {
  MaintenanceCache,
  PermissionCache,
  SessionCache,
  SettingsCache,
  UserCache,
} from './core/caches.ts';
import type { Clock } from './core/clock.ts';
import type { EventBus, EventListeners, HeldEvents } from './core/events.ts';
import type { LiveFleet } from './core/live-fleet.ts';
import type { LoadMonitor } from './core/load-monitor.ts';
import type { Mailer } from './core/mailer.ts';
import type { Metrics } from './core/metrics.ts';
import type { PaymentProvider } from './core/payment-provider.ts';
import type { RateLimiter } from './core/rate-limiter.ts';
import type { RedisConnection } from './core/redis.ts';
import type { DbOrTx } from './db/client.ts';

/**
 * What every service function receives first, and the only way it reaches the database: the app's
 * config, shared parts and the domain's long-lived collaborators, all built in `app.ts`. One per
 * app instance, so tests can run several apps side by side. Inside `inTransaction` the same shape
 * carries the transaction (`db`) and holds the events until the commit (`events`), so a function
 * called there joins the use case's transaction without knowing it. `core/` never sees it: its
 * parts take only what they use. It imports no module (the ports and caches it carries are declared
 * in `core/`): every module imports it, so an import back would close a cycle (decision 010).
 */
export interface AppContext {
  config: AppConfig;
  /** The database, or the transaction of the use case in progress (`inTransaction`). */
  db: DbOrTx;
  engine: 'pglite' | 'postgres';
  /** Listening only: a use case emits on its transaction's `tx.events` (`TxContext`). */
  events: EventListeners;
  limiter: RateLimiter;
  /** Shared with the other nodes when `REDIS_URL` is set; undefined on a single node. */
  redis: RedisConnection | undefined;
  mailer: Mailer;
  log: Logger;
  metrics: Metrics;
  /** What groups time into minutes and hours reads (tests stand at an edge with a manual clock). */
  clock: Clock;
  /** This node's headroom: overloaded, it fails readiness and refuses new bot sockets (issue 36). */
  load: LoadMonitor;
  /** Checkout and refunds: Stripe when configured, the sandbox otherwise. */
  payments: PaymentProvider;
  /** Short-lived caches of what guarded requests read every time (each drops entries on events). */
  sessionCache: SessionCache;
  permissionCache: PermissionCache;
  userCache: UserCache;
  settingsCache: SettingsCache;
  maintenanceCache: MaintenanceCache;
  /** The fleet right now (online bots, their watchers, kicks), served by the real-time hub. */
  live: LiveFleet;
  /**
   * The bots' per-minute activity not written yet: owned by the bots module, fed by the hub with
   * each report, written by its loop (docs/decisions/013-commands-and-history-paths.md).
   */
  activity: BotActivity;
  /** Key sealing secrets the server must show again (bot access keys). */
  sealingKey: Buffer;
  /** Cleanups run on close (timers, caches), last registered first. */
  onClose(cleanup: () => Promise<void> | void): void;
}

/** Set by `inTransaction` alone (the symbol is not exported): what only a transaction's context has. */
const opened: unique symbol = Symbol('opened by inTransaction');

/**
 * The context inside `inTransaction`: `db` is the transaction and `events` holds what is emitted
 * until the commit. A function that emits or audits takes it, so the compiler shows it is called
 * inside a use case's transaction. Only `inTransaction` can make one: a look-alike built by hand
 * (held events beside the app's database) lacks the mark, for the compiler and at run time.
 */
export interface TxContext extends AppContext {
  events: HeldEvents;
  readonly [opened]: true;
}

/**
 * The context as the HTTP layer sees it (`app.ctx`, in every route, hook and plugin): its `db` and
 * `events` are `never`, so `ctx.db.select()` or `ctx.events.emit()` does not compile there, while
 * the context still passes whole to a service (`never` fits any type). A route parses, calls a use
 * case and shapes the answer (docs/architecture.md, "One calling convention").
 */
export type RouteContext = Omit<AppContext, 'db' | 'events'> & { readonly db: never; readonly events: never };

/**
 * The whole context of a built app, for what stands outside the HTTP layer and drives it: the
 * entry points, the tests and the benchmarks. `app.ctx` is that same object, typed for routes.
 */
export function contextOf(app: FastifyInstance): AppContext {
  return app.ctx as AppContext;
}

/**
 * Runs one state-changing use case in one transaction: its reads, its writes and its audit entry
 * commit together or not at all, and the domain events it emits on `tx.events` are published only
 * after the commit (dropped on a rollback). Called inside another use case, it joins that one's
 * transaction and events. See docs/architecture.md, "A use case owns its effects".
 */
export async function inTransaction<T>(ctx: AppContext, work: (tx: TxContext) => Promise<T>): Promise<T> {
  if (isInTransaction(ctx)) return work(ctx);
  // The context shows its bus as listening only (app.ts puts the EventBus there): holding events is
  // this function's, for the transaction it opens.
  const events = (ctx.events as EventBus).heldUntilCommit();
  const result = await ctx.db.transaction((db) => work({ ...ctx, db, events, [opened]: true }));
  events.publish();
  return result;
}

/** True inside `inTransaction`, by its mark, not by the look of `events` (the audit trail insists on it). */
export function isInTransaction(ctx: AppContext): ctx is TxContext {
  return opened in ctx;
}
