import {
  dataAnswer,
  idParams,
  listAnswer,
  permissionLabel,
  roleDetailSchema,
  roleInput,
  roleSchema,
  rolesQuery,
  roleUpdateInput,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvAnswer, sendCsv } from '../../core/admin-list.ts';
import { auditActorOf, requirePermission } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { getRoleDetail, listRoles, streamRoles } from '../roles/index.ts';
import { createRole, deleteRole, updateRole } from './role-admin.service.ts';

const tags = ['admin: roles'];

/** `/admin/roles`: create, rename, describe, choose permissions, delete when unassigned. */
export const rolesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_manageRoles'));

  app.get(
    '/admin/roles',
    { schema: { tags, querystring: rolesQuery, response: { 200: listAnswer(roleSchema) } } },
    async (request) => listRoles(ctx, request.query),
  );

  app.get(
    '/admin/roles/export.csv',
    { schema: { tags, querystring: rolesQuery, response: csvAnswer } },
    async (request, reply) => {
      const rows = streamRoles(ctx, request.query);
      return sendCsv(reply, {
        filename: 'roles.csv',
        header: ['id', 'nom', 'description', 'permissions', 'membres', 'créé le'],
        rows: (async function* () {
          for await (const role of rows)
            yield [
              role.id,
              role.name,
              role.description,
              // What each permission allows, as staff read it in the app (not its `can_` name).
              role.permissions.map((name) => permissionLabel(name)).join(', '),
              role.memberCount,
              role.createdAt,
            ];
        })(),
      });
    },
  );

  app.get(
    '/admin/roles/:id',
    { schema: { tags, params: idParams, response: { 200: dataAnswer(roleDetailSchema) } } },
    async (request) => ({ data: await getRoleDetail(ctx, request.params.id) }),
  );

  app.post(
    '/admin/roles',
    {
      config: { errors: [409] },
      schema: { tags, body: roleInput, response: { 201: dataAnswer(roleDetailSchema) } },
    },
    async (request, reply) => {
      const data = await createRole(ctx, { role: request.body, actor: auditActorOf(request) });
      return reply.status(201).send({ data });
    },
  );

  app.put(
    '/admin/roles/:id',
    {
      schema: {
        tags,
        params: idParams,
        body: roleUpdateInput,
        response: { 200: dataAnswer(roleDetailSchema) },
      },
    },
    async (request) => ({
      data: await updateRole(ctx, {
        roleId: request.params.id,
        patch: request.body,
        actor: auditActorOf(request),
      }),
    }),
  );

  app.delete(
    '/admin/roles/:id',
    { config: { errors: [409] }, schema: { tags, params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await deleteRole(ctx, { roleId: request.params.id, actor: auditActorOf(request) });
      return reply.status(204).send(null);
    },
  );
};
