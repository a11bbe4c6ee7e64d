import {
  DEV_TRUST_ROOT_PATH,
  JWKS_PATH,
  jwksSchema,
  KEY_SET_PATH,
  keySetAnswer,
  keySetStatusAnswer,
  signingKeyAnswer,
  signingKeysAnswer,
  trustRootSchema,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { auditActorOf, requirePermission } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { developmentRootPublicKey, keySetStatus, publishedKeySet, revokeKey } from './key-set.service.ts';
import { listSigningKeys, publishedKeys } from './signing-keys.service.ts';

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

  // The root-signed key set agents trust (decision 912), with the signed revocations of its keys.
  app.get(
    KEY_SET_PATH,
    {
      config: { errors: [404] },
      schema: {
        tags: ['licensing'],
        description:
          'Jeu de clés signé par la clé racine hors ligne, et révocations signées : docs/licensing.md.',
        response: { 200: keySetAnswer },
      },
    },
    async (_request, reply) => {
      const published = await publishedKeySet(ctx);
      if (!published) throw new AppError('KEY_SET_NOT_PUBLISHED');
      reply
        .header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
        .header('access-control-allow-origin', '*');
      return published;
    },
  );

  // A loopback installation's development root, for the simulator and the tests (404 elsewhere).
  app.get(
    DEV_TRUST_ROOT_PATH,
    {
      config: { errors: [404] },
      schema: {
        tags: ['licensing'],
        description: 'Clé publique de la racine de développement (installation locale seulement).',
        response: { 200: trustRootSchema },
      },
    },
    async () => {
      const root = await developmentRootPublicKey(ctx);
      if (!root) throw new AppError('DEV_TRUST_ROOT_ABSENT');
      return root as never;
    },
  );
};

const tags = ['admin: settings'];

/**
 * `/admin/signing-keys`: the signing keys, the key set in service and revocation (decisions 905,
 * 912). Rotating needs the offline root: staff see the command, the server cannot sign a set.
 */
export const signingKeysAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_manageSettings'));

  app.get('/admin/signing-keys', { schema: { tags, response: { 200: signingKeysAnswer } } }, async () => ({
    data: await listSigningKeys(ctx),
  }));

  app.get('/admin/key-set', { schema: { tags, response: { 200: keySetStatusAnswer } } }, async () => ({
    data: await keySetStatus(ctx),
  }));

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
      data: await revokeKey(ctx, { kid: request.params.kid, actor: auditActorOf(request) }),
    }),
  );
};
