import {
  JWKS_PATH,
  jwksSchema,
  leaseAnswer,
  leaseRenewInput,
  signingKeyAnswer,
  signingKeyRotateInput,
  signingKeysAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashSecret } from '../../core/ids.ts';
import { limitPerIp } from '../../core/rate-limit-guard.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { auditActorOf, requirePermission } from '../auth/auth-guard.ts';
import { renewLease } from './lease.service.ts';
import {
  listSigningKeys,
  publishedKeys,
  revokeSigningKey,
  rotateSigningKey,
} from './signing-keys.service.ts';

/**
 * A revoked key leaves the set within this long for a verifier that honours the cache headers (the
 * SDK also refreshes at once when it meets an unknown kid).
 */
const JWKS_MAX_AGE_SECONDS = 300;

/** `GET /.well-known/jwks.json`, at the root of the site (registered outside `/api`, like the web app). */
export const jwksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  app.get(
    JWKS_PATH,
    {
      schema: {
        tags: ['licensing'],
        description: 'Clés publiques (Ed25519) qui vérifient les baux des bots : docs/licensing.md.',
        response: { 200: jwksSchema },
      },
    },
    async (_request, reply) => {
      reply
        .header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
        .header('access-control-allow-origin', '*');
      return publishedKeys(ctx);
    },
  );
};

/** `POST /api/bot/lease`: the agent renews its lease with its bot session. */
export const leaseRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  app.post(
    '/bot/lease',
    {
      config: { errors: [401, 403, 426, 429] },
      preHandler: [
        limitPerIp('leaseRenewalPerIp'),
        // Per bot session (hashed: no token in the limiter's keys), not per address.
        (request) => ctx.limiter.hit('leaseRenewal', hashSecret(request.body.token)),
      ],
      schema: { tags: ['bot'], body: leaseRenewInput, response: { 200: leaseAnswer } },
    },
    async (request) => ({ lease: await renewLease(ctx, request.body) }),
  );
};

const tags = ['admin: settings'];

/** `/admin/signing-keys`: the lease signing keys, their rotation and revocation (decision 905). */
export const signingKeysAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_manageSettings'));

  app.get('/admin/signing-keys', { schema: { tags, response: { 200: signingKeysAnswer } } }, async () => ({
    data: await listSigningKeys(ctx),
  }));

  app.post(
    '/admin/signing-keys/rotate',
    { schema: { tags, body: signingKeyRotateInput, response: { 200: signingKeyAnswer } } },
    async (request) => ({
      data: await rotateSigningKey(ctx, auditActorOf(request), request.body?.purpose ?? 'lease'),
    }),
  );

  app.post(
    '/admin/signing-keys/:kid/revoke',
    {
      schema: {
        tags,
        params: z.object({ kid: z.string().min(1).max(100) }),
        response: { 200: signingKeyAnswer },
      },
    },
    async (request) => ({
      data: await revokeSigningKey(ctx, { kid: request.params.kid, actor: auditActorOf(request) }),
    }),
  );
};
