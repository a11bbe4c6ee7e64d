import {
  adminSessionSchema,
  adminUserDetailSchema,
  adminUserSchema,
  adminUsersQuery,
  auditEntrySchema,
  banInput,
  dataAnswer,
  discordInput,
  grantInput,
  grantUpdateInput,
  hourlySeriesAnswer,
  hourlySeriesQuery,
  idParams,
  listAnswer,
  listQuery,
  myBotAnswer,
  orderSchema,
  permissionGrantSchema,
  revokedAnswer,
  roleRef,
  successAnswer,
  userGrantParams,
  userPcSchema,
  userRolesInput,
  userSessionParams,
} from '@bot/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvAnswer, pageOfItems, sendCsv } from '../../core/admin-list.ts';
import { auditActorOf, requirePermission, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { assertMayReadUser } from '../access/index.ts';
import { listAudit } from '../audit/index.ts';
import { botOverviewOf, listPcsOfUser } from '../bots/index.ts';
import { listMyOrders } from '../orders/index.ts';
import { createGrant, deleteGrant, updateGrant } from '../permissions-admin/index.ts';
import { listAllRoles } from '../roles/index.ts';
import { listWhitelistedAccountNames } from '../whitelist/index.ts';
import {
  activateUserByStaff,
  banUser,
  listUserSessions,
  resendActivationByStaff,
  resetTwoFactorByStaff,
  resetUserHwidByStaff,
  revokeUserSessions,
  setUserDiscordId,
  setUserRoles,
  unbanUser,
} from './admin-users.actions.ts';
import { USER_EXPORT_HEADER, userExportPages } from './admin-users.export.ts';
import { getAdminUserDetail, listAdminUsers, registrationsPerHour } from './admin-users.service.ts';

const tags = ['admin: users'];
const detailAnswer = dataAnswer(adminUserDetailSchema);

/** `/admin/users`: the list, one user, and every staff action on an account. */
export const adminUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  guardRoutes(app, requirePermission('can_manageUsers'));
  // One user's data is read under the staff rank of writes (docs/decisions/404, reads): 403 when the
  // account outranks the reader, 404 when it does not exist.
  const mayRead = (request: FastifyRequest, userId: string) =>
    assertMayReadUser(ctx, { actorId: sessionOf(request).userId, userId });

  app.get(
    '/admin/users',
    { schema: { tags, querystring: adminUsersQuery, response: { 200: listAnswer(adminUserSchema) } } },
    async (request) => listAdminUsers(ctx, request.query, { id: sessionOf(request).userId }),
  );

  app.get(
    '/admin/users/export.csv',
    { schema: { tags, querystring: adminUsersQuery, response: csvAnswer } },
    async (request, reply) =>
      sendCsv(reply, {
        filename: 'utilisateurs.csv',
        header: USER_EXPORT_HEADER,
        pages: userExportPages(ctx, request.query, { id: sessionOf(request).userId }),
      }),
  );

  app.get(
    '/admin/users/registrations',
    { schema: { tags, querystring: hourlySeriesQuery, response: { 200: hourlySeriesAnswer } } },
    async (request) => ({ data: await registrationsPerHour(ctx, request.query.days) }),
  );

  app.get(
    '/admin/users/role-options',
    { schema: { tags, response: { 200: dataAnswer(z.array(roleRef)) } } },
    async () => ({ data: await listAllRoles(ctx) }),
  );

  app.get(
    '/admin/users/:id',
    { schema: { tags, params: idParams, response: { 200: detailAnswer } } },
    async (request) => {
      await mayRead(request, request.params.id);
      return { data: await getAdminUserDetail(ctx, request.params.id) };
    },
  );

  app.post(
    '/admin/users/:id/activate',
    { config: { errors: [409] }, schema: { tags, params: idParams, response: { 200: detailAnswer } } },
    async (request) => {
      await activateUserByStaff(ctx, { userId: request.params.id, actor: auditActorOf(request) });
      return { data: await getAdminUserDetail(ctx, request.params.id) };
    },
  );

  app.post(
    '/admin/users/:id/resend-activation',
    { config: { errors: [409] }, schema: { tags, params: idParams, response: { 200: successAnswer } } },
    async (request) => {
      await resendActivationByStaff(ctx, { userId: request.params.id, actor: auditActorOf(request) });
      return { success: true as const };
    },
  );

  app.post(
    '/admin/users/:id/ban',
    {
      config: { errors: [409] },
      schema: { tags, params: idParams, body: banInput, response: { 200: detailAnswer } },
    },
    async (request) => {
      await banUser(ctx, {
        userId: request.params.id,
        reason: request.body.reason,
        actor: auditActorOf(request),
      });
      return { data: await getAdminUserDetail(ctx, request.params.id) };
    },
  );

  app.post(
    '/admin/users/:id/unban',
    { config: { errors: [409] }, schema: { tags, params: idParams, response: { 200: detailAnswer } } },
    async (request) => {
      await unbanUser(ctx, { userId: request.params.id, actor: auditActorOf(request) });
      return { data: await getAdminUserDetail(ctx, request.params.id) };
    },
  );

  app.put(
    '/admin/users/:id/roles',
    { schema: { tags, params: idParams, body: userRolesInput, response: { 200: detailAnswer } } },
    async (request) => {
      await setUserRoles(ctx, {
        userId: request.params.id,
        roleIds: request.body.roleIds,
        actor: auditActorOf(request),
      });
      return { data: await getAdminUserDetail(ctx, request.params.id) };
    },
  );

  app.put(
    '/admin/users/:id/discord',
    { schema: { tags, params: idParams, body: discordInput, response: { 200: detailAnswer } } },
    async (request) => {
      await setUserDiscordId(ctx, {
        userId: request.params.id,
        discordId: request.body.discordId,
        actor: auditActorOf(request),
      });
      return { data: await getAdminUserDetail(ctx, request.params.id) };
    },
  );

  app.delete(
    '/admin/users/:id/hwid',
    { config: { errors: [409] }, schema: { tags, params: idParams, response: { 200: detailAnswer } } },
    async (request) => {
      await resetUserHwidByStaff(ctx, { userId: request.params.id, actor: auditActorOf(request) });
      return { data: await getAdminUserDetail(ctx, request.params.id) };
    },
  );

  app.delete(
    '/admin/users/:id/two-factor',
    { config: { errors: [409] }, schema: { tags, params: idParams, response: { 200: detailAnswer } } },
    async (request) => {
      await resetTwoFactorByStaff(ctx, { userId: request.params.id, actor: auditActorOf(request) });
      return { data: await getAdminUserDetail(ctx, request.params.id) };
    },
  );

  app.post(
    '/admin/users/:id/grants',
    {
      schema: {
        tags,
        params: idParams,
        body: grantInput,
        response: { 201: dataAnswer(permissionGrantSchema) },
      },
    },
    async (request, reply) => {
      const data = await createGrant(ctx, {
        userId: request.params.id,
        ...request.body,
        actor: auditActorOf(request),
      });
      return reply.status(201).send({ data });
    },
  );

  app.patch(
    '/admin/users/:id/grants/:grantId',
    {
      schema: {
        tags,
        params: userGrantParams,
        body: grantUpdateInput,
        response: { 200: dataAnswer(permissionGrantSchema) },
      },
    },
    async (request) => ({
      data: await updateGrant(ctx, {
        grantId: request.params.grantId,
        userId: request.params.id,
        expiresAt: request.body.expiresAt,
        actor: auditActorOf(request),
      }),
    }),
  );

  app.delete(
    '/admin/users/:id/grants/:grantId',
    { schema: { tags, params: userGrantParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await deleteGrant(ctx, {
        grantId: request.params.grantId,
        userId: request.params.id,
        actor: auditActorOf(request),
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/admin/users/:id/sessions',
    {
      schema: {
        tags,
        params: idParams,
        querystring: listQuery,
        response: { 200: listAnswer(adminSessionSchema) },
      },
    },
    async (request) => {
      await mayRead(request, request.params.id);
      return pageOfItems(await listUserSessions(ctx, request.params.id), request.query, {
        text: (session) => `${session.ip ?? ''} ${session.userAgent ?? ''}`,
        sortKeys: { createdAt: (session) => session.createdAt, lastSeenAt: (session) => session.lastSeenAt },
      });
    },
  );

  app.delete(
    '/admin/users/:id/sessions',
    { schema: { tags, params: idParams, response: { 200: revokedAnswer } } },
    async (request) => ({
      revoked: await revokeUserSessions(ctx, { userId: request.params.id, actor: auditActorOf(request) }),
    }),
  );

  app.delete(
    '/admin/users/:id/sessions/:sessionId',
    {
      schema: { tags, params: userSessionParams, response: { 200: revokedAnswer } },
    },
    async (request) => ({
      revoked: await revokeUserSessions(ctx, {
        userId: request.params.id,
        sessionId: request.params.sessionId,
        actor: auditActorOf(request),
      }),
    }),
  );

  app.get(
    '/admin/users/:id/audit',
    {
      schema: {
        tags,
        params: idParams,
        querystring: listQuery,
        response: { 200: listAnswer(auditEntrySchema) },
      },
    },
    async (request) => {
      await mayRead(request, request.params.id);
      return listAudit(
        ctx,
        { ...request.query, involvingUserId: request.params.id },
        { id: sessionOf(request).userId },
      );
    },
  );

  app.get(
    '/admin/users/:id/whitelist',
    { schema: { tags, params: idParams, querystring: listQuery, response: { 200: listAnswer(z.string()) } } },
    async (request) => {
      await mayRead(request, request.params.id);
      return pageOfItems(await listWhitelistedAccountNames(ctx, request.params.id), request.query, {
        text: (name) => name,
        sortKeys: { name: (name) => name },
      });
    },
  );

  app.get(
    '/admin/users/:id/bot',
    { schema: { tags, params: idParams, response: { 200: myBotAnswer } } },
    async (request) => {
      await mayRead(request, request.params.id);
      return { data: await botOverviewOf(ctx, request.params.id) };
    },
  );

  app.get(
    '/admin/users/:id/pcs',
    {
      schema: {
        tags,
        description: 'Les PC que l’utilisateur a eus (le lié d’abord), pour en lire l’historique.',
        params: idParams,
        querystring: listQuery,
        response: { 200: listAnswer(userPcSchema) },
      },
    },
    async (request) => {
      await mayRead(request, request.params.id);
      return pageOfItems(await listPcsOfUser(ctx, request.params.id), request.query, {
        text: (pc) => pc.hwid,
        sortKeys: { lastSeenAt: (pc) => pc.lastSeenAt ?? '' },
      });
    },
  );

  app.get(
    '/admin/users/:id/orders',
    {
      schema: { tags, params: idParams, querystring: listQuery, response: { 200: listAnswer(orderSchema) } },
    },
    async (request) => {
      await mayRead(request, request.params.id);
      return pageOfItems(await listMyOrders(ctx, request.params.id), request.query, {
        text: (order) => `${order.number} ${order.packageName} ${order.voucherCode ?? ''}`,
        sortKeys: { createdAt: (order) => order.createdAt, amountCents: (order) => order.amountCents },
      });
    },
  );
};
