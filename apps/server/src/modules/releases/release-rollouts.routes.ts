import {
  dataAnswer,
  idParams,
  releaseAdoptionAnswer,
  releaseRolloutInput,
  releaseSchema,
  releaseYankInput,
  updateDeferralInput,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActorOf, botSessionOf, requirePermission } from '../../core/guards.ts';
import { limitPerIp } from '../../core/rate-limit-guard.ts';
import { deferUpdate, readAdoption } from './release-adoption.ts';
import { changeRollout, yankRelease } from './release-rollouts.ts';

const tags = ['releases'];

/**
 * Staged rollouts (decision 910): staff move a release's share, pause, resume or withdraw it and
 * read the fleet's adoption; agents tell when they put an update off.
 */
export const releaseRolloutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const staff = requirePermission('can_manageSettings');

  app.put(
    '/admin/releases/:id/rollout',
    {
      onRequest: staff,
      config: { errors: [409] },
      schema: {
        tags,
        params: idParams,
        body: releaseRolloutInput,
        response: { 200: dataAnswer(releaseSchema) },
      },
    },
    async (request) => ({
      data: await changeRollout(ctx, {
        ...request.body,
        id: request.params.id,
        actor: auditActorOf(request),
      }),
    }),
  );

  app.post(
    '/admin/releases/:id/yank',
    {
      onRequest: staff,
      config: { errors: [409] },
      schema: {
        tags,
        params: idParams,
        body: releaseYankInput,
        response: { 200: dataAnswer(releaseSchema) },
      },
    },
    async (request) => ({
      data: await yankRelease(ctx, { ...request.body, id: request.params.id, actor: auditActorOf(request) }),
    }),
  );

  app.get(
    '/admin/releases/adoption',
    { onRequest: staff, schema: { tags, response: { 200: releaseAdoptionAnswer } } },
    async () => ({ data: await readAdoption(ctx) }),
  );

  app.post(
    '/bot/update-deferral',
    {
      preHandler: limitPerIp('leaseRenewalPerIp'),
      config: { errors: [401, 429] },
      schema: {
        tags: ['bot'],
        body: updateDeferralInput,
        response: { 200: z.object({ until: z.string() }) },
      },
    },
    async (request) => {
      const { hwid } = await botSessionOf(request, request.body);
      return deferUpdate(ctx, { hwid, version: request.body.version, minutes: request.body.minutes });
    },
  );
};
