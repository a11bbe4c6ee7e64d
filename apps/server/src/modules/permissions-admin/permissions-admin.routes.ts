import {
  dataAnswer,
  grantParams,
  grantToUserInput,
  grantUpdateInput,
  listAnswer,
  listQuery,
  permissionDetailSchema,
  permissionGrantSchema,
  permissionParams,
  permissionSummarySchema,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageOfItems } from '../../core/admin-list.ts';
import { auditActorOf, requirePermission } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import {
  createGrant,
  deleteGrant,
  getPermissionDetail,
  listPermissionSummaries,
  updateGrant,
} from './permissions-admin.service.ts';

const tags = ['admin: permissions'];

/** `/admin/permissions`: the 13 names, who holds them, direct grants with end dates. */
export const permissionsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_managePermissions'));

  app.get(
    '/admin/permissions',
    { schema: { tags, querystring: listQuery, response: { 200: listAnswer(permissionSummarySchema) } } },
    async (request) =>
      pageOfItems(await listPermissionSummaries(ctx), request.query, {
        text: (permission) => `${permission.name} ${permission.description}`,
        sortKeys: {
          name: (permission) => permission.name,
          activeGrantCount: (permission) => permission.activeGrantCount,
        },
      }),
  );

  app.get(
    '/admin/permissions/:name',
    { schema: { tags, params: permissionParams, response: { 200: dataAnswer(permissionDetailSchema) } } },
    async (request) => ({ data: await getPermissionDetail(ctx, request.params.name) }),
  );

  app.post(
    '/admin/permissions/:name/grants',
    {
      schema: {
        tags,
        params: permissionParams,
        body: grantToUserInput,
        response: { 201: dataAnswer(permissionGrantSchema) },
      },
    },
    async (request, reply) => {
      const data = await createGrant(ctx, {
        username: request.body.username,
        permission: request.params.name,
        expiresAt: request.body.expiresAt,
        actor: auditActorOf(request),
      });
      return reply.status(201).send({ data });
    },
  );

  app.patch(
    '/admin/permissions/grants/:id',
    {
      schema: {
        tags,
        params: grantParams,
        body: grantUpdateInput,
        response: { 200: dataAnswer(permissionGrantSchema) },
      },
    },
    async (request) => ({
      data: await updateGrant(ctx, {
        grantId: request.params.id,
        expiresAt: request.body.expiresAt,
        actor: auditActorOf(request),
      }),
    }),
  );

  app.delete(
    '/admin/permissions/grants/:id',
    { schema: { tags, params: grantParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await deleteGrant(ctx, { grantId: request.params.id, actor: auditActorOf(request) });
      return reply.status(204).send(null);
    },
  );
};
