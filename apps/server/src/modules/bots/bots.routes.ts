import {
  botSessionAnswer,
  botSessionInput,
  hourlySeriesAnswer,
  hourlySeriesQuery,
  leaseAnswer,
  leaseRenewInput,
  myBotAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePermission, requireSession, sessionOf } from '../../core/guards.ts';
import { hashSecret } from '../../core/ids.ts';
import { limitPerIp } from '../../core/rate-limit-guard.ts';
import { botOverviewOf } from './bot-overview.ts';
import { onlineBotsPerHour } from './bots.history.ts';
import { openBotSession, type UpdateOffer } from './bots.service.ts';
import { renewLease } from './lease-renewal.ts';

/** The agent's session and the owner's and staff's bot pages; `offerUpdate` is the releases' (app.ts). */
export const botRoutes: FastifyPluginAsyncZod<{ offerUpdate: UpdateOffer }> = async (
  app,
  { offerUpdate },
) => {
  const { ctx } = app;
  await app.register(leaseRoutes);

  app.post(
    '/bot/sessions',
    {
      config: { errors: [401, 403, 409, 426, 429] },
      preHandler: limitPerIp('botSession'),
      schema: { tags: ['bot'], body: botSessionInput, response: { 201: botSessionAnswer } },
    },
    async (request, reply) => {
      const answer = await openBotSession(ctx, { ...request.body, ip: request.ip }, offerUpdate);
      return reply.status(201).send(answer);
    },
  );

  app.get(
    '/me/bot',
    { onRequest: requireSession, schema: { tags: ['me'], response: { 200: myBotAnswer } } },
    async (request) => ({ data: await botOverviewOf(ctx, sessionOf(request).userId) }),
  );

  app.get(
    '/admin/bots/online-history',
    {
      onRequest: requirePermission('can_manageMap'),
      schema: {
        tags: ['admin: map'],
        description: 'Bots en ligne par heure (historique conservé 7 jours).',
        querystring: hourlySeriesQuery,
        response: { 200: hourlySeriesAnswer },
      },
    },
    async (request) => ({ data: await onlineBotsPerHour(ctx, request.query.days) }),
  );
};

/** `POST /api/bot/lease`: the agent renews its lease with its bot session. */
const leaseRoutes: FastifyPluginAsyncZod = async (app) => {
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
    async (request) => renewLease(ctx, request.body),
  );
};
