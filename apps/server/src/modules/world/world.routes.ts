import {
  botRouteSchema,
  dataAnswer,
  hwidSchema,
  idParams,
  listAnswer,
  routeInput,
  routeSchema,
  routesQuery,
  routeUpdateInput,
  worldAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvAnswer, sendCsv } from '../../core/admin-list.ts';
import {
  auditActorOf,
  botSessionOf,
  readBearerToken,
  requireAnyPermission,
  requireBotToken,
  requirePermission,
} from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import {
  createRoute,
  deleteRoute,
  getRoute,
  getWorld,
  listPublishedRoutes,
  listRoutes,
  routeKindsOf,
  seedWorld,
  streamRoutes,
  updateRoute,
} from './world.service.ts';

/** The world grid (admin map and route editor), routes admin, and the routes bots fetch. */
export const worldRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  await seedWorld(ctx);

  // Shared by two admin pages: either permission opens it.
  app.get(
    '/admin/world',
    {
      onRequest: requireAnyPermission('can_manageMap', 'can_manageRoute'),
      schema: { tags: ['admin: world'], response: { 200: worldAnswer } },
    },
    async (_request, reply) => {
      // The grid changes only with a new seed: let the browser keep it a few minutes.
      reply.header('cache-control', 'private, max-age=300');
      return { data: await getWorld(ctx) };
    },
  );

  await app.register(routesAdminRoutes);

  /**
   * Bot agents: `Authorization: Bearer <bot session token>` and `?hwid=` (the session is bound to
   * its PC). Gathering routes need can_useGathering, treasure routes can_useTreasure.
   */
  app.get(
    '/bot/routes',
    {
      onRequest: requireBotToken,
      schema: {
        tags: ['bot'],
        querystring: z.object({ hwid: hwidSchema }),
        response: { 200: listAnswer(botRouteSchema) },
      },
    },
    async (request) => {
      const session = await botSessionOf(request, {
        token: readBearerToken(request),
        hwid: request.query.hwid,
      });
      const data = await listPublishedRoutes(ctx, await routeKindsOf(ctx, session.userId));
      return { data, total: data.length };
    },
  );
};

/** `/admin/routes` (can_manageRoute): list, export, create, edit, publish, delete. */
const routesAdminRoutes: FastifyPluginAsyncZod = async (admin) => {
  const { ctx } = admin;
  const tags = ['admin: routes'];
  guardRoutes(admin, requirePermission('can_manageRoute'));

  admin.get(
    '/admin/routes',
    { schema: { tags, querystring: routesQuery, response: { 200: listAnswer(routeSchema) } } },
    async (request) => listRoutes(ctx, request.query),
  );

  admin.get(
    '/admin/routes/export.csv',
    { schema: { tags, querystring: routesQuery, response: csvAnswer } },
    async (request, reply) => {
      const routes = streamRoutes(ctx, request.query);
      return sendCsv(reply, {
        filename: 'itineraires.csv',
        header: ['id', 'nom', 'type', 'statut', 'étapes', 'modifié le', 'modifié par'],
        rows: (async function* () {
          for await (const route of routes)
            yield [
              route.id,
              route.name,
              route.kind,
              route.status,
              route.steps.map((step) => `${step.x},${step.y}:${step.action}`).join(' '),
              route.updatedAt,
              route.updatedByUsername ?? '',
            ];
        })(),
      });
    },
  );

  admin.get(
    '/admin/routes/:id',
    { schema: { tags, params: idParams, response: { 200: dataAnswer(routeSchema) } } },
    async (request) => ({ data: await getRoute(ctx, request.params.id) }),
  );

  admin.post(
    '/admin/routes',
    { schema: { tags, body: routeInput, response: { 201: dataAnswer(routeSchema) } } },
    async (request, reply) => {
      const data = await createRoute(ctx, { route: request.body, actor: auditActorOf(request) });
      return reply.status(201).send({ data });
    },
  );

  admin.put(
    '/admin/routes/:id',
    {
      schema: { tags, params: idParams, body: routeUpdateInput, response: { 200: dataAnswer(routeSchema) } },
    },
    async (request) => ({
      data: await updateRoute(ctx, {
        routeId: request.params.id,
        patch: request.body,
        actor: auditActorOf(request),
      }),
    }),
  );

  admin.delete(
    '/admin/routes/:id',
    { schema: { tags, params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await deleteRoute(ctx, { routeId: request.params.id, actor: auditActorOf(request) });
      return reply.status(204).send(null);
    },
  );
};
