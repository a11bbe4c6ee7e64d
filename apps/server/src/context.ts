import type { Logger } from 'pino';
import type { AppConfig } from './config.ts';
import type { EventBus } from './core/events.ts';
import type { Mailer } from './core/mailer.ts';
import type { Metrics } from './core/metrics.ts';
import type { RateLimiter } from './core/rate-limiter.ts';
import type { RedisConnection } from './core/redis.ts';
import type { Db } from './db/client.ts';
import type { PermissionCache } from './modules/access/access.service.ts';
import type { SessionCache } from './modules/auth/sessions.service.ts';
import type { LiveFleet } from './modules/bots/live-fleet.ts';
import type { PaymentProvider } from './modules/payments/payment-provider.ts';
import type { SettingsCache } from './modules/settings/settings.service.ts';
import type { UserCache } from './modules/users/users.service.ts';

/**
 * What every service function receives first: the app's config, shared parts and the domain's
 * long-lived collaborators, all built in `app.ts`. One per app instance, so tests can run several
 * apps side by side. `core/` never sees it: its parts take only what they use.
 */
export interface AppContext {
  config: AppConfig;
  db: Db;
  engine: 'pglite' | 'postgres';
  events: EventBus;
  limiter: RateLimiter;
  /** Shared with the other nodes when `REDIS_URL` is set; undefined on a single node. */
  redis: RedisConnection | undefined;
  mailer: Mailer;
  log: Logger;
  metrics: Metrics;
  /** Checkout and refunds: Stripe when configured, the sandbox otherwise. */
  payments: PaymentProvider;
  /** Short-lived caches of what guarded requests read every time (each drops entries on events). */
  sessionCache: SessionCache;
  permissionCache: PermissionCache;
  userCache: UserCache;
  settingsCache: SettingsCache;
  /** The fleet right now (online bots, their watchers, kicks), served by the real-time hub. */
  live: LiveFleet;
  /** Key sealing secrets the server must show again (bot access keys). */
  sealingKey: Buffer;
  /** Cleanups run on close (timers, caches), last registered first. */
  onClose(cleanup: () => Promise<void> | void): void;
}
