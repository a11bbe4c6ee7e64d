import {
  adminPaymentAnswer,
  adminPaymentsAnswer,
  adminPaymentsQuery,
  createOrderInput,
  hourlySeriesAnswer,
  hourlySeriesQuery,
  idParams,
  ORDER_STATUS_LABELS,
  orderAnswer,
  ordersAnswer,
  PROVIDER_LABELS,
  receiptAnswer,
  refundInput,
  subscriptionsAnswer,
} from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { csvAnswer, inBatches, sendCsv } from '../../core/admin-list.ts';
import { auditActorOf, requirePermission, requireSession, sessionOf } from '../../core/guards.ts';
import { guardRoutes } from '../../core/route-docs.ts';
import { assertMayReadUser } from '../access/index.ts';
import {
  cancelMyOrder,
  createOrder,
  getOwnOrder,
  listMyOrders,
  listSubscriptions,
  toOrder,
} from './orders.service.ts';
import {
  getPayment,
  listPayments,
  paymentPages,
  refundOrder,
  salesPerHour,
} from './payments-admin.service.ts';
import { getPaymentReceipt, getReceipt } from './receipts.ts';
import { voucherOrderRoutes } from './voucher-orders.routes.ts';

export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(myOrderRoutes);
  await app.register(adminPaymentRoutes);
  await app.register(voucherOrderRoutes);
};

const myOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tags = ['orders'];
  guardRoutes(app, requireSession);

  app.get('/me/orders', { schema: { tags, response: { 200: ordersAnswer } } }, async (request) => ({
    data: await listMyOrders(ctx, sessionOf(request).userId),
  }));

  app.post(
    '/me/orders',
    {
      config: { errors: [404, 409, 422, 429] },
      schema: { tags, body: createOrderInput, response: { 201: orderAnswer } },
    },
    async (request, reply) => {
      const order = await createOrder(ctx, {
        userId: sessionOf(request).userId,
        packageId: request.body.packageId,
        voucherCode: request.body.voucherCode || undefined,
        ip: request.ip,
      });
      return reply.status(201).send({ data: order });
    },
  );

  app.get(
    '/me/orders/:id',
    { schema: { tags, params: idParams, response: { 200: orderAnswer } } },
    async (request) => ({
      data: toOrder(
        await getOwnOrder(ctx, { userId: sessionOf(request).userId, orderId: request.params.id }),
      ),
    }),
  );

  app.post(
    '/me/orders/:id/cancel',
    {
      config: { errors: [404, 409] },
      schema: {
        tags,
        description: 'Ferme un paiement en attente : la commande est annulée et son code promo rendu.',
        params: idParams,
        response: { 200: orderAnswer },
      },
    },
    async (request) => ({
      data: await cancelMyOrder(ctx, { userId: sessionOf(request).userId, orderId: request.params.id }),
    }),
  );

  app.get(
    '/me/orders/:id/receipt',
    { config: { errors: [404, 409] }, schema: { tags, params: idParams, response: { 200: receiptAnswer } } },
    async (request) => ({
      data: await getReceipt(ctx, { userId: sessionOf(request).userId, orderId: request.params.id }),
    }),
  );

  app.get(
    '/me/subscriptions',
    { schema: { tags, response: { 200: subscriptionsAnswer } } },
    async (request) => ({
      data: await listSubscriptions(ctx, sessionOf(request).userId),
    }),
  );
};

const adminPaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tags = ['admin: payments'];
  guardRoutes(app, requirePermission('can_manageSettings'));

  app.get(
    '/admin/payments',
    { schema: { tags, querystring: adminPaymentsQuery, response: { 200: adminPaymentsAnswer } } },
    async (request) => listPayments(ctx, request.query, { id: sessionOf(request).userId }),
  );

  app.get(
    '/admin/payments/sales',
    {
      schema: {
        tags,
        description: 'Montant des commandes payées par heure, en centimes (remboursées exclues).',
        querystring: hourlySeriesQuery,
        response: { 200: hourlySeriesAnswer },
      },
    },
    async (request) => ({ data: await salesPerHour(ctx, request.query.days) }),
  );

  app.get(
    '/admin/payments/export.csv',
    { schema: { tags, querystring: adminPaymentsQuery, response: csvAnswer } },
    async (request, reply) => {
      const fetchPage = paymentPages(ctx, request.query, { id: sessionOf(request).userId });
      async function* rows() {
        for await (const payment of inBatches(fetchPage)) {
          yield [
            payment.number,
            payment.createdAt,
            payment.user.username,
            payment.packageName,
            ORDER_STATUS_LABELS[payment.status],
            PROVIDER_LABELS[payment.provider],
            (payment.priceCents / 100).toFixed(2),
            (payment.discountCents / 100).toFixed(2),
            (payment.amountCents / 100).toFixed(2),
            payment.currency,
            payment.voucherCode ?? '',
            payment.paidAt ?? '',
            payment.refundedAt ?? '',
            payment.providerRef ?? '',
          ];
        }
      }
      return sendCsv(reply, {
        filename: `paiements-${new Date().toISOString().slice(0, 10)}.csv`,
        header: [
          'Commande',
          'Créée le',
          'Client',
          'Offre',
          'Statut',
          'Moyen',
          'Prix',
          'Réduction',
          'Montant',
          'Devise',
          'Code promo',
          'Payée le',
          'Remboursée le',
          'Référence',
        ],
        rows: rows(),
      });
    },
  );

  app.get(
    '/admin/payments/:id',
    { schema: { tags, params: idParams, response: { 200: adminPaymentAnswer } } },
    async (request) => ({
      data: await getPayment(ctx, request.params.id, { id: sessionOf(request).userId }),
    }),
  );

  app.get(
    '/admin/payments/:id/receipt',
    { config: { errors: [404, 409] }, schema: { tags, params: idParams, response: { 200: receiptAnswer } } },
    async (request) => {
      // A receipt names the buyer's e-mail: one user's data, read under the staff rank (decision 404).
      const receipt = await getPaymentReceipt(ctx, request.params.id);
      await assertMayReadUser(ctx, { actorId: sessionOf(request).userId, userId: receipt.customer.id });
      return { data: receipt };
    },
  );

  app.post(
    '/admin/payments/:id/refund',
    {
      config: { errors: [409] },
      schema: { tags, params: idParams, body: refundInput, response: { 200: adminPaymentAnswer } },
    },
    async (request) => ({
      data: await refundOrder(ctx, {
        orderId: request.params.id,
        reason: request.body.reason,
        actor: auditActorOf(request),
      }),
    }),
  );
};
