import type { Logger } from 'pino';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { PaymentProvider } from '../modules/payments/payment-provider.ts';
import type { EventBus } from './events.ts';
import type { Mailer } from './mailer.ts';
import type { Metrics } from './metrics.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { RedisConnection } from './redis.ts';

/**
 * What every service function receives first: the app's config and shared parts. One per app
 * instance, so tests can run several apps side by side.
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
  /** Key sealing secrets the server must show again (bot access keys). */
  sealingKey: Buffer;
  /** Cleanups run on close (timers, caches), last registered first. */
  onClose(cleanup: () => Promise<void> | void): void;
}
