import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';
import { idempotencyKeys } from './idempotency.table.ts';

/** How long an answer is kept for replays (Stripe keeps keys 24 h too). */
const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still unanswered after this long belongs to a request that died with its node: the
 * slowest request (a checkout waiting on Stripe: 20 s, retried twice) ends well before.
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
    // Expired, or claimed by a request that never answered (its node stopped mid-way): free again.
    const now = Date.now();
    await db
      .delete(idempotencyKeys)
      .where(
        and(
          where,
          or(
            lt(idempotencyKeys.expiresAt, new Date(now)),
            and(
              isNull(idempotencyKeys.responseStatus),
              lt(idempotencyKeys.createdAt, new Date(now - ABANDONED_CLAIM_MS)),
            ),
          ),
        ),
      );
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
    if (earlier.responseStatus === null) throw new AppError('IDEMPOTENCY_IN_PROGRESS');
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
    if (!isSuccess) await db.delete(idempotencyKeys).where(where);
    else
      await db
        .update(idempotencyKeys)
        .set({ responseStatus: reply.statusCode, responseBody: payload ? JSON.parse(payload) : null })
        .where(where);
    return payload;
  });
};
// Like fastify-plugin: the hooks apply to the whole API, not a child context.
(idempotency as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

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
