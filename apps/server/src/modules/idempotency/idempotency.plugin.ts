import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
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
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface Claim {
  userId: string;
  sessionId: string;
  key: string;
  route: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: Claim;
  }
  interface FastifyContextConfig {
    /**
     * The answer carries a secret (recovery codes, a TOTP secret, a bot key): it must never be
     * stored, so the route refuses `Idempotency-Key` (a replay would also skip the code check).
     */
    secretAnswer?: boolean;
  }
}

/**
 * `Idempotency-Key` on every signed-in POST: the first request with a key runs and its successful
 * answer is kept; a retry with the same key and body gets that answer again (`Idempotent-Replayed:
 * true`), one arriving while the first still runs gets 409, the same key with another body 422.
 * Failed answers are not kept, so a retry runs again. Two concurrent checkouts with one key used
 * to create two orders. Keys belong to one session of one user; routes answering a secret refuse
 * them (`config.secretAnswer`): an answer kept 24 h in clear was a copy of the secret.
 * The claim and the kept answer are writes of their own around the use case's transaction (the
 * claim must be seen by a concurrent retry before that commits; the answer exists only after it):
 * a request that never answered is never run again, its retry is told the outcome is unknown
 * (decision 009).
 */
export const idempotency: FastifyPluginAsync = async (api) => {
  const { db } = api.ctx;

  api.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined || !request.auth) return;
    if (request.routeOptions.config.secretAnswer) throw new AppError('IDEMPOTENCY_NOT_ACCEPTED');
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID');
    const { userId, sessionId } = request.auth;
    const claim: Claim = { userId, sessionId, key, route: request.url.split('?')[0] ?? '' };
    const requestHash = hashBody(request);
    const where = whereClaim(claim);
    await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.expiresAt, new Date())));
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ ...claim, requestHash, expiresAt: new Date(Date.now() + KEY_TTL_MS) })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length > 0) {
      request.idempotencyClaim = claim;
      return;
    }
    const [earlier] = await db.select().from(idempotencyKeys).where(where);
    if (!earlier) throw new AppError('IDEMPOTENCY_IN_PROGRESS'); // released between our two reads
    if (earlier.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    if (earlier.responseStatus === null) throw unansweredClaim(earlier.createdAt);
    return reply
      .status(earlier.responseStatus)
      .header('Idempotent-Replayed', 'true')
      .send(earlier.responseBody);
  });

  api.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    const where = whereClaim(claim);
    const isSuccess = reply.statusCode < 300 && typeof payload === 'string';
    try {
      if (!isSuccess) await db.delete(idempotencyKeys).where(where);
      else
        await db
          .update(idempotencyKeys)
          .set({ responseStatus: reply.statusCode, responseBody: payload ? JSON.parse(payload) : null })
          .where(where);
    } catch (error) {
      // The change is committed (or refused) already: its caller still gets the true answer, and the
      // claim left unanswered keeps a retry from running it again.
      request.log.error({ err: error }, 'réponse idempotente non conservée');
    }
    return payload;
  });
};
// Like fastify-plugin: the hooks apply to the whole API, not a child context.
(idempotency as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

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

function hashBody(request: FastifyRequest): string {
  return createHash('sha256')
    .update(JSON.stringify(request.body ?? null))
    .digest('hex');
}
