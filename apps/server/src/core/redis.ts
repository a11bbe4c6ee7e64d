import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * The node's Redis connection when `REDIS_URL` is set (several nodes share presence, bot states,
 * rate limits and Socket.IO broadcasts through it). Redis going away must never stop the node:
 * commands fail fast instead of queueing (callers fall back to local behaviour), and the client
 * reconnects on its own at most a second apart.
 */
export interface RedisConnection {
  /** Commands of the state store and rate limits: fail at once while Redis is unreachable. */
  readonly commands: Redis;
  /**
   * The Socket.IO adapter's client (it duplicates it for its blocking stream reads and its
   * subscriptions, which must wait for Redis rather than fail in a loop).
   */
  readonly adapter: Redis;
  /** True while the command connection is up. */
  isReady(): boolean;
  close(): Promise<void>;
}

const RECONNECT_MAX_DELAY_MS = 1_000;

export function openRedis(url: string, log: Logger): RedisConnection {
  const common = {
    connectTimeout: 2_000,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, RECONNECT_MAX_DELAY_MS),
  };
  const commands = new Redis(url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const adapter = new Redis(url, { ...common, maxRetriesPerRequest: 1 });
  let wasReady = false;
  commands.on('ready', () => {
    if (wasReady) log.info('Redis de retour : diffusion entre nœuds rétablie');
    wasReady = true;
  });
  let lastWarning = 0;
  const warn = (error: Error) => {
    // One line per 10 s while Redis is down, not one per reconnection attempt.
    if (Date.now() - lastWarning < 10_000) return;
    lastWarning = Date.now();
    log.warn({ err: error }, 'Redis injoignable : ce nœud continue seul en attendant son retour');
  };
  commands.on('error', warn);
  adapter.on('error', warn);
  return {
    commands,
    adapter,
    isReady: () => commands.status === 'ready',
    async close() {
      commands.disconnect();
      adapter.disconnect();
    },
  };
}

/** Resolves once the command connection is up, or after `timeoutMs` (the node starts degraded). */
export function waitForRedis(redis: RedisConnection, timeoutMs: number): Promise<boolean> {
  if (redis.isReady()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.commands.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.commands.on('ready', onReady);
  });
}
