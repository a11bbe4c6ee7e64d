import {
  idParams,
  listQuery,
  voucherPreviewAnswer,
  voucherPreviewInput,
  voucherRedemptionsAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePermission, requireSession, sessionOf } from '../../core/guards.ts';
import { listVoucherRedemptions } from '../vouchers/index.ts';
import { findOrderStatuses, previewCheckoutVoucher } from './orders.service.ts';

/**
 * The voucher routes that read orders: a checkout's preview (`/me/vouchers/preview`) and the staff's
 * list of a voucher's redemptions with each one's order status (`/admin/vouchers/:id/redemptions`).
 * A checkout reserves its voucher, so orders use vouchers and never the other way round (decision 010).
 */
export const voucherOrderRoutes: FastifyPluginAsyncZod = async (app) => {
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

  app.get(
    '/admin/vouchers/:id/redemptions',
    {
      onRequest: requirePermission('can_manageVoucher'),
      schema: {
        tags: ['admin: vouchers'],
        params: idParams,
        querystring: listQuery,
        response: { 200: voucherRedemptionsAnswer },
      },
    },
    async (request) =>
      listVoucherRedemptions(ctx, { ...request.query, voucherId: request.params.id }, (ids) =>
        findOrderStatuses(ctx, ids),
      ),
  );
};
