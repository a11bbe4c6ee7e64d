import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig, RateLimitRule } from '../config.ts';
import { AppError } from './errors.ts';

export type RateLimitName = keyof AppConfig['rateLimits'];

/**
 * Every HTTP rate limit, by the rule's name in the configuration, on rate-limiter-flexible (its
 * memory store on one node; the same interface has a Redis store for several nodes). A key says
 * who is counted: an address, an account, or both ("alice|203.0.113.7").
 */
export class RateLimiter {
  private readonly limiters = new Map<RateLimitName, RateLimiterAbstract>();

  constructor(private readonly rules: AppConfig['rateLimits']) {}

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
    const state = await this.limiterFor(rule).get(key);
    return state !== null && state.consumedPoints >= this.rules[rule].max;
  }

  /** Forgets a key's attempts (a successful login clears its failures). */
  async reset(rule: RateLimitName, key: string): Promise<void> {
    await this.limiterFor(rule).delete(key);
  }

  private limiterFor(rule: RateLimitName): RateLimiterAbstract {
    let limiter = this.limiters.get(rule);
    if (!limiter) {
      limiter = createLimiter(rule, this.rules[rule]);
      this.limiters.set(rule, limiter);
    }
    return limiter;
  }
}

function createLimiter(name: RateLimitName, rule: RateLimitRule): RateLimiterAbstract {
  return new RateLimiterMemory({
    keyPrefix: name,
    points: rule.max,
    duration: Math.ceil(rule.windowMs / 1000),
  });
}
