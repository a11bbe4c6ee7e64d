import {
  adminWhitelistAddInput,
  adminWhitelistEntryAnswer,
  adminWhitelistListAnswer,
  adminWhitelistQuery,
  idParams,
  myWhitelistAnswer,
  whitelistAddInput,
  whitelistEntryAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActorOf, requirePermission, requireSession, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import {
  addToMyWhitelist,
  addWhitelistEntryForCustomer,
  getMyWhitelist,
  listWhitelist,
  removeFromMyWhitelist,
  removeWhitelistEntry,
} from './whitelist.service.ts';

export const whitelistRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(myWhitelistRoutes);
  await app.register(adminWhitelistRoutes);
};

const myWhitelistRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tags = ['whitelist'];
  guardRoutes(app, requireSession);

  app.get('/me/whitelist', { schema: { tags, response: { 200: myWhitelistAnswer } } }, async (request) =>
    getMyWhitelist(ctx, sessionOf(request).userId),
  );

  app.post(
    '/me/whitelist',
    {
      config: { errors: [409] },
      schema: { tags, body: whitelistAddInput, response: { 201: whitelistEntryAnswer } },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await addToMyWhitelist(ctx, {
          userId: sessionOf(request).userId,
          name: request.body.name,
          ip: request.ip,
        }),
      }),
  );

  app.delete(
    '/me/whitelist/:id',
    { schema: { tags, params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await removeFromMyWhitelist(ctx, {
        userId: sessionOf(request).userId,
        entryId: request.params.id,
        ip: request.ip,
      });
      return reply.status(204).send(null);
    },
  );
};

const adminWhitelistRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tags = ['admin: whitelist'];
  guardRoutes(app, requirePermission('can_manageWhitelist'));

  app.get(
    '/admin/whitelist',
    { schema: { tags, querystring: adminWhitelistQuery, response: { 200: adminWhitelistListAnswer } } },
    async (request) => listWhitelist(ctx, request.query, { id: sessionOf(request).userId }),
  );

  app.post(
    '/admin/whitelist',
    {
      config: { errors: [404, 409] },
      schema: { tags, body: adminWhitelistAddInput, response: { 201: adminWhitelistEntryAnswer } },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await addWhitelistEntryForCustomer(ctx, { ...request.body, actor: auditActorOf(request) }),
      }),
  );

  app.delete(
    '/admin/whitelist/:id',
    { schema: { tags, params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await removeWhitelistEntry(ctx, { id: request.params.id, actor: auditActorOf(request) });
      return reply.status(204).send(null);
    },
  );
};
