import type { AdminPayment, AdminPaymentsQuery, HourlyPoint, PaymentTotals } from '@bot/contracts';
import { and, count, desc, eq, gte, ilike, lte, or, type SQL, sql, sum } from 'drizzle-orm';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import { AppError } from '../../core/errors.ts';
import { hourOf, toHourlyPoints, windowStart } from '../../core/time-series.ts';
import { findOutrankingUserIds, invalidateUserPermissions, revokeGrantsOfSource } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { users } from '../users/index.ts';
import { expireStaleOrders, findOrderById, orderNumberOf, toOrder } from './orders.service.ts';
import { type OrderRow, orders } from './orders.table.ts';

/**
 * Staff: payments — the orders seen as payments (list, totals, export, detail) and refunds.
 * Customers' orders and their fulfilment live in orders.service.ts.
 */

function paymentFilters(query: AdminPaymentsQuery, withStatus: boolean): SQL | undefined {
  const filters: (SQL | undefined)[] = [];
  if (withStatus && query.status) filters.push(eq(orders.status, query.status));
  if (query.provider) filters.push(eq(orders.provider, query.provider));
  if (query.from) filters.push(gte(orders.createdAt, new Date(query.from)));
  if (query.to) filters.push(lte(orders.createdAt, new Date(query.to)));
  if (query.userId) filters.push(eq(orders.userId, query.userId));
  if (query.q) {
    const pattern = likePattern(query.q);
    const asNumber = /^(?:CMD-)?0*(\d{1,12})$/i.exec(query.q.trim());
    filters.push(
      or(
        ilike(users.username, pattern),
        ilike(orders.packageName, pattern),
        ilike(orders.voucherCode, pattern),
        asNumber ? eq(orders.number, Number(asNumber[1])) : undefined,
      ),
    );
  }
  const present = filters.filter((filter): filter is SQL => filter !== undefined);
  return present.length ? and(...present) : undefined;
}

const paymentColumns = { order: orders, username: users.username };

function toAdminPayment(row: { order: OrderRow; username: string }): AdminPayment {
  return {
    ...toOrder(row.order),
    checkoutUrl: row.order.checkoutUrl,
    user: { id: row.order.userId, username: row.username },
    providerRef: row.order.providerRef,
  };
}

const paymentSorts = {
  createdAt: orders.createdAt,
  amountCents: orders.amountCents,
  status: orders.status,
  provider: orders.provider,
  number: orders.number,
  paidAt: orders.paidAt,
  username: users.username,
};

/**
 * Payments of buyers who outrank the reader keep what the accounts need (who, what, how much, when)
 * and lose the provider's reference and checkout link, which lead to the buyer's card and billing
 * details at the provider (docs/decisions/404, reads).
 */
async function readableBy(
  ctx: AppContext,
  reader: { id: string },
  payments: AdminPayment[],
): Promise<AdminPayment[]> {
  const outranking = await findOutrankingUserIds(ctx, {
    actorId: reader.id,
    userIds: payments.map((payment) => payment.user.id),
  });
  return payments.map((payment) =>
    outranking.has(payment.user.id) ? { ...payment, providerRef: null, checkoutUrl: null } : payment,
  );
}

export async function listPayments(
  ctx: AppContext,
  query: AdminPaymentsQuery,
  reader: { id: string },
): Promise<{ data: AdminPayment[]; total: number; totals: PaymentTotals }> {
  await expireStaleOrders(ctx);
  const where = paymentFilters(query, true);
  const { limit, offset } = pageOf(query);
  const rows = await paymentPages(ctx, query, reader)(offset, limit);
  const [total] = await ctx.db
    .select({ value: count() })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where);
  return {
    data: rows,
    total: total?.value ?? 0,
    totals: await paymentTotals(ctx, query),
  };
}

/** Money of the period (and other filters but the status): paid, refunded, discounts. */
async function paymentTotals(ctx: AppContext, query: AdminPaymentsQuery): Promise<PaymentTotals> {
  const where = paymentFilters(query, false);
  const [row] = await ctx.db
    .select({
      paidCount: sql<number>`count(*) filter (where ${orders.status} = 'paid')`,
      paidCents: sql<string | null>`sum(${orders.amountCents}) filter (where ${orders.status} = 'paid')`,
      refundedCount: sql<number>`count(*) filter (where ${orders.status} = 'refunded')`,
      refundedCents: sql<
        string | null
      >`sum(${orders.amountCents}) filter (where ${orders.status} = 'refunded')`,
      discountCents: sql<
        string | null
      >`sum(${orders.discountCents}) filter (where ${orders.status} = 'paid')`,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where);
  return {
    paidCount: Number(row?.paidCount ?? 0),
    paidCents: Number(row?.paidCents ?? 0),
    refundedCount: Number(row?.refundedCount ?? 0),
    refundedCents: Number(row?.refundedCents ?? 0),
    discountCents: Number(row?.discountCents ?? 0),
    currency: 'EUR',
  };
}

/** Payments matching the filters, one page at a time (the list, and the CSV export page after page). */
export function paymentPages(ctx: AppContext, query: AdminPaymentsQuery, reader: { id: string }) {
  const where = paymentFilters(query, true);
  const order = orderOf(query.sort, paymentSorts, desc(orders.createdAt));
  return async (offset: number, limit: number) => {
    const rows = await ctx.db
      .select(paymentColumns)
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(order, desc(orders.id))
      .limit(limit)
      .offset(offset);
    return readableBy(ctx, reader, rows.map(toAdminPayment));
  };
}

/** One payment whole: what the refund's audit entry keeps. */
async function paymentOf(ctx: AppContext, orderId: string): Promise<AdminPayment> {
  const [row] = await ctx.db
    .select(paymentColumns)
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row) throw new AppError('PAYMENT_NOT_FOUND');
  return toAdminPayment(row);
}

/** One payment as a staff member reads it (readableBy). */
export async function getPayment(
  ctx: AppContext,
  orderId: string,
  reader: { id: string },
): Promise<AdminPayment> {
  const [payment] = await readableBy(ctx, reader, [await paymentOf(ctx, orderId)]);
  return payment!;
}

/**
 * Refunds a paid order: the provider gives the money back, then, in one transaction, the order
 * turns refunded, what it granted is revoked and the audit entry is written.
 */
export async function refundOrder(
  ctx: AppContext,
  input: { orderId: string; reason?: string; actor: AuditActor },
): Promise<AdminPayment> {
  const order = await findOrderById(ctx, input.orderId);
  if (!order) throw new AppError('PAYMENT_NOT_FOUND');
  if (order.status !== 'paid') throw new AppError('ORDER_NOT_REFUNDABLE');
  if (order.provider === 'stripe') {
    try {
      await ctx.payments.refund(order);
    } catch (error) {
      ctx.log.error({ err: error, orderId: order.id }, 'remboursement refusé par le prestataire');
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
    }
  }
  const refunded = await inTransaction(ctx, async (tx) => {
    const done = await markOrderRefunded(tx, { orderId: order.id, actor: input.actor, reason: input.reason });
    if (!done) throw new AppError('ORDER_NOT_REFUNDABLE');
    return done;
  });
  return refunded;
}

/**
 * paid -> refunded in the caller's transaction: revokes what the order granted, writes the audit
 * entry and drops the buyer's cached permissions at the commit. Undefined when the order was not
 * paid (already refunded, for instance).
 */
export async function markOrderRefunded(
  ctx: TxContext,
  input: { orderId: string; actor: AuditActor; reason?: string },
): Promise<AdminPayment | undefined> {
  const before = await paymentOf(ctx, input.orderId);
  const now = new Date();
  const [row] = await ctx.db
    .update(orders)
    .set({ status: 'refunded', refundedAt: now, refundedById: input.actor.id, updatedAt: now })
    .where(and(eq(orders.id, input.orderId), eq(orders.status, 'paid')))
    .returning();
  if (!row) return undefined;
  const revokedGrants = await revokeGrantsOfSource(ctx, { source: 'order', sourceId: row.id });
  const after = await paymentOf(ctx, row.id);
  await writeAudit(ctx, {
    actor: input.actor,
    action: 'payment.refund',
    target: { type: 'order', id: row.id, label: orderNumberOf(row) },
    before,
    after: { ...after, revokedGrants, reason: input.reason ?? null },
  });
  invalidateUserPermissions(ctx, row.userId);
  return after;
}

/** Money of the orders paid in each hour of the last `days` days (refunded ones left out), in cents. */
export async function salesPerHour(ctx: AppContext, days: number): Promise<HourlyPoint[]> {
  const hour = hourOf(orders.paidAt);
  const rows = await ctx.db
    .select({ hour, value: sum(orders.amountCents) })
    .from(orders)
    .where(and(eq(orders.status, 'paid'), gte(orders.paidAt, windowStart(days, ctx.clock.now()))))
    .groupBy(hour)
    .orderBy(hour);
  return toHourlyPoints(rows);
}
