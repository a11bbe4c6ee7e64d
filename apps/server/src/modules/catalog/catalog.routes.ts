import {
  idParams,
  packageAnswer,
  packageInput,
  packageListAnswer,
  packageListQuery,
  packageReorderInput,
  packagesAnswer,
  packageUpdateInput,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActorOf, requirePermission } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import {
  createPackage,
  getPackageById,
  listActivePackages,
  listPackages,
  reorderPackages,
  toPackage,
  updatePackage,
} from './catalog.service.ts';

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('/packages', { schema: { tags: ['catalog'], response: { 200: packagesAnswer } } }, async () => ({
    data: await listActivePackages(ctx),
  }));

  await app.register(adminPackageRoutes);
};

const adminPackageRoutes: FastifyPluginAsyncZod = async (admin) => {
  const { ctx } = admin;
  const tags = ['admin: packages'];
  guardRoutes(admin, requirePermission('can_managePackages'));

  admin.get(
    '/admin/packages',
    { schema: { tags, querystring: packageListQuery, response: { 200: packageListAnswer } } },
    async (request) => listPackages(ctx, request.query),
  );

  admin.get(
    '/admin/packages/:id',
    { schema: { tags, params: idParams, response: { 200: packageAnswer } } },
    async (request) => ({ data: toPackage(await getPackageById(ctx, request.params.id)) }),
  );

  admin.post(
    '/admin/packages',
    { schema: { tags, body: packageInput, response: { 201: packageAnswer } } },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await createPackage(ctx, { data: request.body, actor: auditActorOf(request) }) }),
  );

  admin.patch(
    '/admin/packages/:id',
    {
      config: { errors: [409] },
      schema: { tags, params: idParams, body: packageUpdateInput, response: { 200: packageAnswer } },
    },
    async (request) => ({
      data: await updatePackage(ctx, {
        id: request.params.id,
        data: request.body,
        actor: auditActorOf(request),
      }),
    }),
  );

  // Orders keep referring to their package: "delete" retires it.
  admin.delete(
    '/admin/packages/:id',
    { schema: { tags, params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await updatePackage(ctx, {
        id: request.params.id,
        data: { retired: true },
        actor: auditActorOf(request),
      });
      return reply.status(204).send(null);
    },
  );

  admin.post(
    '/admin/packages/reorder',
    { schema: { tags, body: packageReorderInput, response: { 200: packagesAnswer } } },
    async (request) => ({
      data: await reorderPackages(ctx, { ids: request.body.ids, actor: auditActorOf(request) }),
    }),
  );
};
