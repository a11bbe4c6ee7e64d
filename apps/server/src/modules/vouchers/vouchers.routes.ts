import {
  idParams,
  listQuery,
  voucherAnswer,
  voucherInput,
  voucherListAnswer,
  voucherListQuery,
  voucherPreviewAnswer,
  voucherPreviewInput,
  voucherRedemptionsAnswer,
  voucherUpdateInput,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActorOf, requirePermission, requireSession, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { findOrderStatuses, previewCheckoutVoucher } from '../orders/index.ts';
import {
  createVoucher,
  deleteVoucher,
  getVoucher,
  listVoucherRedemptions,
  listVouchers,
  updateVoucher,
} from './vouchers-admin.service.ts';

export const vouchersRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(myVoucherRoutes);
  await app.register(adminVoucherRoutes);
};

const myVoucherRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  app.post(
    '/me/vouchers/preview',
    {
      config: { errors: [404, 409, 429] },
      onRequest: requireSession,
      schema: { tags: ['vouchers'], body: voucherPreviewInput, response: { 200: voucherPreviewAnswer } },
    },
    async (request) => ({
      data: await previewCheckoutVoucher(ctx, {
        userId: sessionOf(request).userId,
        ip: request.ip,
        ...request.body,
      }),
    }),
  );
};

const adminVoucherRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tags = ['admin: vouchers'];
  guardRoutes(app, requirePermission('can_manageVoucher'));

  app.get(
    '/admin/vouchers',
    { schema: { tags, querystring: voucherListQuery, response: { 200: voucherListAnswer } } },
    async (request) => listVouchers(ctx, request.query),
  );

  app.get(
    '/admin/vouchers/:id',
    { schema: { tags, params: idParams, response: { 200: voucherAnswer } } },
    async (request) => ({ data: await getVoucher(ctx, request.params.id) }),
  );

  app.get(
    '/admin/vouchers/:id/redemptions',
    {
      schema: { tags, params: idParams, querystring: listQuery, response: { 200: voucherRedemptionsAnswer } },
    },
    async (request) =>
      listVoucherRedemptions(ctx, { ...request.query, voucherId: request.params.id }, (ids) =>
        findOrderStatuses(ctx, ids),
      ),
  );

  app.post(
    '/admin/vouchers',
    { config: { errors: [409] }, schema: { tags, body: voucherInput, response: { 201: voucherAnswer } } },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await createVoucher(ctx, { data: request.body, actor: auditActorOf(request) }) }),
  );

  app.patch(
    '/admin/vouchers/:id',
    { schema: { tags, params: idParams, body: voucherUpdateInput, response: { 200: voucherAnswer } } },
    async (request) => ({
      data: await updateVoucher(ctx, {
        id: request.params.id,
        data: request.body,
        actor: auditActorOf(request),
      }),
    }),
  );

  app.delete(
    '/admin/vouchers/:id',
    { config: { errors: [409] }, schema: { tags, params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await deleteVoucher(ctx, { id: request.params.id, actor: auditActorOf(request) });
      return reply.status(204).send(null);
    },
  );
};
