import { and, eq, lt } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { idempotencyKeys } from './idempotency.table.ts';

/** How long an answer is kept for replays (Stripe keeps keys 24 h too). */
const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still unanswered after this long belongs to a request that died with its node (the
 * slowest request, a checkout waiting on Stripe: 20 s, retried twice, ends well before). It may have
 * committed its change: it is never run again (docs/decisions/009-use-cases-own-their-effects.md).
 */
const ABANDONED_CLAIM_MS = 5 * 60_000;

/** One key of one session of one user, on one route. */
export interface Claim {
  userId: string;
  sessionId: string;
  key: string;
  route: string;
}

/** A successful answer, kept to be sent again to a retry. */
export interface KeptAnswer {
  status: number;
  body: unknown;
}

/**
 * Claims a key for a request whose body hashes to `requestHash`: undefined when the request is the
 * first and runs, the kept answer when it already ran; refuses a key still running, reused with
 * another body, or whose request died before answering (it may have committed).
 */
export async function claimKey(
  ctx: AppContext,
  claim: Claim,
  requestHash: string,
): Promise<KeptAnswer | undefined> {
  const where = whereClaim(claim);
  await ctx.db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.expiresAt, new Date())));
  const claimed = await ctx.db
    .insert(idempotencyKeys)
    .values({ ...claim, requestHash, expiresAt: new Date(Date.now() + KEY_TTL_MS) })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length > 0) return undefined;
  const [earlier] = await ctx.db.select().from(idempotencyKeys).where(where);
  if (!earlier) throw new AppError('IDEMPOTENCY_IN_PROGRESS'); // released between our two reads
  if (earlier.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  if (earlier.responseStatus === null) throw unansweredClaim(earlier.createdAt);
  return { status: earlier.responseStatus, body: earlier.responseBody };
}

/** Keeps a successful answer for the claim's retries, or releases the claim of a failed one. */
export async function settleClaim(ctx: AppContext, claim: Claim, answer: KeptAnswer | undefined) {
  const where = whereClaim(claim);
  if (!answer) await ctx.db.delete(idempotencyKeys).where(where);
  else
    await ctx.db
      .update(idempotencyKeys)
      .set({ responseStatus: answer.status, responseBody: answer.body })
      .where(where);
}

/** Still running, or died before answering: then it may have committed, and is not run again. */
function unansweredClaim(claimedAt: Date): AppError {
  const isAbandoned = claimedAt.getTime() < Date.now() - ABANDONED_CLAIM_MS;
  return new AppError(isAbandoned ? 'IDEMPOTENCY_OUTCOME_UNKNOWN' : 'IDEMPOTENCY_IN_PROGRESS');
}

const whereClaim = (claim: Claim) =>
  and(
    eq(idempotencyKeys.userId, claim.userId),
    eq(idempotencyKeys.sessionId, claim.sessionId),
    eq(idempotencyKeys.key, claim.key),
    eq(idempotencyKeys.route, claim.route),
  );
