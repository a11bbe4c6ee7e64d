import type { RateLimitRule } from '../config.ts';
import { AppError } from './errors.ts';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window counters keyed by what is limited ("login:ip:1.2.3.4"). Used for HTTP rules that
 * need several keys per call (per account and per IP), voucher guessing and socket floods.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private sweptAt = Date.now();

  /** Counts one hit; throws RATE_LIMITED with Retry-After once the rule is exceeded. */
  hit(key: string, rule: RateLimitRule, now = Date.now()): void {
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + rule.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count > rule.max) {
      throw new AppError('RATE_LIMITED', { retryAfter: Math.ceil((window.resetAt - now) / 1000) });
    }
  }

  /** Forgets a key (a successful login clears the account's failures). */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
