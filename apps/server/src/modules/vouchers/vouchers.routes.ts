import {
  idParams,
  voucherAnswer,
  voucherInput,
  voucherListAnswer,
  voucherListQuery,
  voucherUpdateInput,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActorOf, requirePermission } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import {
  createVoucher,
  deleteVoucher,
  getVoucher,
  listVouchers,
  updateVoucher,
} from './vouchers-admin.service.ts';

// A checkout's voucher preview and a voucher's redemptions with their orders are orders' routes
// (orders/voucher-orders.routes.ts): orders use vouchers, never the other way round.
export const vouchersRoutes: FastifyPluginAsyncZod = async (app) => {
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
