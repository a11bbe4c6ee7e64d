import type { AppContext } from '../../context.ts';
import { rateLimitAddress } from '../../core/client-address.ts';
import type { RateLimitName } from '../../core/rate-limiter.ts';

/** The limits of the sign-in and recovery paths (decision 704), shared by the auth service. */

/**
 * Wrong passwords of one account, per (account, address) and account-wide: sign-in's limits, shared
 * by every place that checks a password against a login (a stolen session guessing the current
 * password through `PUT /me/password` meets them too).
 */
export function passwordFailures(ctx: AppContext, login: string, ip: string | null) {
  const account = login.toLowerCase();
  const address = rateLimitAddress(ip);
  const checks: [RateLimitName, string][] = [
    ['loginPerAccountAndIp', `${account}|${address}`],
    ['loginPerAccount', account],
  ];
  return {
    /** 429 when either has used up its attempts. */
    async refuseWhenExhausted(): Promise<void> {
      for (const [rule, key] of checks) {
        if (await ctx.limiter.isExhausted(rule, key)) await ctx.limiter.hit(rule, key); // throws with Retry-After
      }
    },
    async failed(): Promise<void> {
      for (const [rule, key] of checks) await ctx.limiter.hit(rule, key).catch(() => undefined);
    },
    succeeded: () => ctx.limiter.reset('loginPerAccountAndIp', `${account}|${address}`),
  };
}

/**
 * Limits of the mail-sending requests, counted by the submitted login or e-mail (normalised) whether
 * or not it has an account: the same answer either way, the mail skipped quietly when over. A 429
 * told which e-mails are customers', and three strangers' requests blocked the owner's for an hour;
 * now only the account-wide cap, out of reach of a handful of addresses, is shared with them.
 */
export async function withinMailLimits(
  ctx: AppContext,
  kind: 'resend' | 'forgot',
  login: string,
  origin: { ip: string | null },
): Promise<boolean> {
  const account = login.trim().toLowerCase();
  const ip = rateLimitAddress(origin.ip);
  return ctx.limiter.allows([
    [kind, ip],
    [kind === 'resend' ? 'resendPerAccountAndIp' : 'forgotPerAccountAndIp', `${account}|${ip}`],
    [kind === 'resend' ? 'resendPerAccount' : 'forgotPerAccount', account],
  ]);
}
