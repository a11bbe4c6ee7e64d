import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { AppConfig, RateLimitRule } from '../config.ts';
import { AppError } from './errors.ts';

export type RateLimitName = keyof AppConfig['rateLimits'];

/**
 * Every rate limit (HTTP and sockets), by the rule's name in the configuration, on
 * rate-limiter-flexible: in memory on one node; in Redis when nodes share one (an attacker cannot
 * multiply the limit by the number of nodes), with the memory store as insurance while Redis is
 * unreachable. A key says who is counted: an address, an account, or both ("alice|203.0.113.7").
 */
export class RateLimiter {
  private readonly limiters = new Map<RateLimitName, RateLimiterAbstract>();

  constructor(
    private readonly rules: AppConfig['rateLimits'],
    private readonly redis?: Redis,
  ) {}

  /** Counts one attempt; throws RATE_LIMITED with Retry-After once the rule is exceeded. */
  async hit(rule: RateLimitName, key: string): Promise<void> {
    try {
      await this.limiterFor(rule).consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw new AppError('RATE_LIMITED', { retryAfter: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) });
    }
  }

  /** True when the key has already used up its rule (checked without counting an attempt). */
  async isExhausted(rule: RateLimitName, key: string): Promise<boolean> {
    const state = await this.limiterFor(rule)
      .get(key)
      .catch(() => null); // Redis unreachable: the next hit falls back to the insurance store
    return state !== null && state.consumedPoints >= this.rules[rule].max;
  }

  /** Forgets a key's attempts (a successful login clears its failures). */
  async reset(rule: RateLimitName, key: string): Promise<void> {
    await this.limiterFor(rule)
      .delete(key)
      .catch(() => undefined);
  }

  private limiterFor(rule: RateLimitName): RateLimiterAbstract {
    let limiter = this.limiters.get(rule);
    if (!limiter) {
      limiter = createLimiter(rule, this.rules[rule], this.redis);
      this.limiters.set(rule, limiter);
    }
    return limiter;
  }
}

function createLimiter(name: RateLimitName, rule: RateLimitRule, redis?: Redis): RateLimiterAbstract {
  const options = { keyPrefix: `rl:${name}`, points: rule.max, duration: Math.ceil(rule.windowMs / 1000) };
  const memory = new RateLimiterMemory(options);
  if (!redis) return memory;
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}
