import { OUTSTANDING_LINKS_PER_MAILBOX } from '@bot/contracts';
import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { deleteInBatches, retentionStart } from '../../core/batched-delete.ts';
import { rateLimitAddress } from '../../core/client-address.ts';
import type { RateLimitName } from '../../core/rate-limiter.ts';
import { getSettings } from '../settings/index.ts';
import type { UserRow } from '../users/index.ts';
import { userTokens } from './user-tokens.table.ts';

/** The limits of the sign-in and recovery paths (decisions 704 and 914), shared by the auth service. */

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

/**
 * Unexpired, unused activation and reset links one mailbox may hold (decision 914, in contracts: the
 * pages say it): a stranger's requests mail the owner, so past this the mail is skipped (same
 * answer) and the links already sent stay valid. Only these links count: alerts, receipts and
 * security notices carry none.
 */
export { OUTSTANDING_LINKS_PER_MAILBOX };

/** The log line of a link skipped at the cap (operators see a mailbox being bombed). */
export const MAILBOX_CAP_SKIPPED = 'lien non envoyé : la boîte aux lettres a déjà ses liens valables';

/** Domains where dots in the local part are ignored by the provider itself (Google's). */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, as the cap counts it: lower case, without a `+tag`, and for
 * Gmail without dots (Gmail ignores them: each variant would otherwise be a new mailbox to fill).
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  let local = address.slice(0, at).split('+')[0] ?? '';
  let domain = address.slice(at + 1);
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/**
 * Whether a link of `kind` may be mailed to the user now, in the caller's transaction (which then
 * issues it: the mailbox's lock is held until its commit, so concurrent requests count each other).
 * At the cap: no, except a reset link for an activated account that holds none, so that a
 * stranger filling the mailbox with other accounts' links (`+tag` registrations) never keeps the
 * owner from resetting their own password; that exception is bounded by the owner's own accounts.
 */
export async function mayMailLink(
  tx: AppContext,
  user: Pick<UserRow, 'id' | 'email' | 'activatedAt'>,
  kind: 'activation' | 'reset',
): Promise<boolean> {
  const mailbox = mailboxOf(user.email);
  await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`mailbox:${mailbox}`}))`);
  const outstanding = await tx.db
    .select({ userId: userTokens.userId, kind: userTokens.kind })
    .from(userTokens)
    .where(
      and(eq(userTokens.mailbox, mailbox), isNull(userTokens.usedAt), gt(userTokens.expiresAt, new Date())),
    );
  if (outstanding.length < OUTSTANDING_LINKS_PER_MAILBOX) return true;
  const holdsOwnReset = outstanding.some((link) => link.userId === user.id && link.kind === 'reset');
  if (kind === 'reset' && user.activatedAt && !holdsOwnReset) return true;
  tx.log.info({ userId: user.id, kind }, MAILBOX_CAP_SKIPPED);
  return false;
}

/** Ends the user's unused links of these kinds: they stop working and no longer fill the mailbox. */
export async function retireLinks(
  tx: AppContext,
  userId: string,
  kinds: ('activation' | 'reset')[],
): Promise<void> {
  await tx.db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(userTokens.userId, userId), inArray(userTokens.kind, kinds), isNull(userTokens.usedAt)));
}

/**
 * Deletes the links used (or retired) or expired more than `userTokenRetentionDays` ago (the
 * retention loop, docs/capacity.md). A link still usable stays: it is unused and unexpired, and the
 * mailbox cap counts it.
 */
export async function pruneUserTokens(ctx: AppContext, now = new Date()): Promise<number> {
  const { userTokenRetentionDays } = await getSettings(ctx);
  const before = retentionStart(now, userTokenRetentionDays);
  return deleteInBatches(
    ctx.db,
    userTokens,
    or(lt(userTokens.usedAt, before), lt(userTokens.expiresAt, before)) ?? sql`false`,
  );
}
