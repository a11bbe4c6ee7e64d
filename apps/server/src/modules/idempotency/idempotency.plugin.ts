import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';
import { type Claim, claimKey, settleClaim } from './idempotency.service.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

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
  api.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined || !request.auth) return;
    if (request.routeOptions.config.secretAnswer) throw new AppError('IDEMPOTENCY_NOT_ACCEPTED');
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID');
    const { userId, sessionId } = request.auth;
    const claim: Claim = { userId, sessionId, key, route: request.url.split('?')[0] ?? '' };
    const kept = await claimKey(api.ctx, claim, hashBody(request));
    if (!kept) {
      request.idempotencyClaim = claim;
      return;
    }
    return reply.status(kept.status).header('Idempotent-Replayed', 'true').send(kept.body);
  });

  api.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    const isSuccess = reply.statusCode < 300 && typeof payload === 'string';
    try {
      const body = isSuccess && payload ? JSON.parse(payload) : null;
      await settleClaim(api.ctx, claim, isSuccess ? { status: reply.statusCode, body } : undefined);
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

function hashBody(request: FastifyRequest): string {
  return createHash('sha256')
    .update(JSON.stringify(request.body ?? null))
    .digest('hex');
}
