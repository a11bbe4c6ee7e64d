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

/** The longest an escalating lockout lasts. */
const MAX_LOCKOUT_SECONDS = 24 * 60 * 60;
const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

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
      throw new AppError('RATE_LIMITED', { retryAfter: secondsOf(refusal.msBeforeNext) });
    }
  }

  /**
   * Counts one attempt against every (rule, key) pair and answers true, or answers false without
   * counting anything when one of them is used up: a request over one limit must not spend the
   * others (a stranger over their own limit would eat the owner's account-wide one).
   */
  async allows(checks: readonly [RateLimitName, string][]): Promise<boolean> {
    for (const [rule, key] of checks) if (await this.isExhausted(rule, key)) return false;
    for (const [rule, key] of checks)
      await this.limiterFor(rule)
        .consume(key)
        .catch(() => undefined);
    return true;
  }

  /**
   * `hit` whose refusals grow: each time the key uses its rule up again within `lockouts`' window,
   * it waits twice as long as the time before (the rule's window, then twice, four times… at most a
   * day). `onLockout` runs once per new lockout, with the wait in seconds.
   */
  async hitEscalating(
    rule: RateLimitName,
    lockouts: RateLimitName,
    key: string,
    onLockout: (waitSeconds: number) => Promise<void>,
  ): Promise<void> {
    const limiter = this.limiterFor(rule);
    try {
      await limiter.consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      if (refusal.consumedPoints !== this.rules[rule].max + 1) {
        throw new AppError('RATE_LIMITED', { retryAfter: secondsOf(refusal.msBeforeNext) });
      }
      const strikes = (await this.limiterFor(lockouts).consume(key)).consumedPoints;
      const waitSeconds = Math.min(
        Math.ceil(this.rules[rule].windowMs / 1000) * 2 ** Math.min(strikes - 1, 16),
        MAX_LOCKOUT_SECONDS,
      );
      await limiter.block(key, waitSeconds);
      await onLockout(waitSeconds);
      throw new AppError('RATE_LIMITED', { retryAfter: waitSeconds });
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
