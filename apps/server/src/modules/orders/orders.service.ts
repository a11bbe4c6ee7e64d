import {
  discountOf,
  type Order,
  type OrderStatus,
  type PackageSubscription,
  type VoucherPreview,
} from '@bot/contracts';
import { and, asc, desc, eq, gt, inArray, lte, sql, sum } from 'drizzle-orm';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { grantPermission, invalidateUserPermissions } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { getBuyablePackage } from '../catalog/index.ts';
import { getUserById } from '../users/index.ts';
import {
  limitVoucherGuesses,
  previewVoucher,
  releaseVoucherRedemption,
  reserveVoucher,
  restoreVoucherRedemption,
} from '../vouchers/index.ts';
import { type OrderRow, orders } from './orders.table.ts';

/** A checkout left unpaid this long expires (and gives its voucher use back). */
const PENDING_ORDER_TTL_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export const orderNumberOf = (row: Pick<OrderRow, 'number'>): string =>
  `CMD-${String(row.number).padStart(6, '0')}`;

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    number: orderNumberOf(row),
    status: row.status,
    provider: row.provider,
    packageId: row.packageId,
    packageName: row.packageName,
    durationDays: row.durationDays,
    grants: row.grants,
    whitelistSlots: row.whitelistSlots,
    priceCents: row.priceCents,
    discountCents: row.discountCents,
    amountCents: row.amountCents,
    currency: row.currency as Order['currency'],
    voucherCode: row.voucherCode,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    paidAt: row.paidAt?.toISOString() ?? null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    checkoutUrl: row.status === 'pending' ? row.checkoutUrl : null,
  };
}

/** Serialises the fulfilments of one customer: periods chain without overlapping (ADR 301). */
async function lockCustomer(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`orders:${userId}`}))`);
}

/**
 * pending (or, for a provider-confirmed payment, expired/failed) -> paid, and everything the order
 * buys, in the caller's transaction: the grants, the audit entry naming them and `user.changed`
 * (the buyer's cached permissions go at the commit), so no caller has anything left to do. The
 * conditional UPDATE makes it happen once per order whatever the number and order of the calls.
 * Returns the paid order, or undefined when there was nothing to do. `actor`: the buyer unless given
 * (Stripe's webhook).
 */
export async function fulfilOrder(
  ctx: TxContext,
  input: { orderId: string; from: OrderStatus[]; providerPaymentRef?: string | null; actor?: AuditActor },
): Promise<OrderRow | undefined> {
  const [current] = await ctx.db
    .select({ userId: orders.userId })
    .from(orders)
    .where(eq(orders.id, input.orderId));
  if (!current) return undefined;
  await lockCustomer(ctx, current.userId);
  const now = new Date();
  const [paid] = await ctx.db
    .update(orders)
    .set({
      status: 'paid',
      paidAt: now,
      updatedAt: now,
      ...(input.providerPaymentRef ? { providerPaymentRef: input.providerPaymentRef } : {}),
    })
    .where(and(eq(orders.id, input.orderId), inArray(orders.status, input.from)))
    .returning();
  if (!paid) return undefined;
  // An order closed before its payment arrived gave its voucher use back: take it again (no-op otherwise).
  if (paid.voucherId)
    await restoreVoucherRedemption(ctx, { orderId: paid.id, voucherId: paid.voucherId, userId: paid.userId });

  // Buying again extends from the current end date of the same package.
  const [running] = await ctx.db
    .select({ endsAt: sql<Date | string | null>`max(${orders.endsAt})` })
    .from(orders)
    .where(
      and(
        eq(orders.userId, paid.userId),
        eq(orders.packageId, paid.packageId),
        eq(orders.status, 'paid'),
        gt(orders.endsAt, now),
      ),
    );
  const runningEnd = running?.endsAt ? new Date(running.endsAt) : null;
  const startsAt = runningEnd && runningEnd > now ? runningEnd : now;
  const endsAt = new Date(startsAt.getTime() + paid.durationDays * DAY_MS);
  const [dated] = await ctx.db
    .update(orders)
    .set({ startsAt, endsAt })
    .where(eq(orders.id, paid.id))
    .returning();
  for (const permission of paid.grants) {
    await grantPermission(ctx, {
      id: newId(),
      userId: paid.userId,
      permission,
      expiresAt: endsAt,
      source: 'order',
      sourceId: paid.id,
    });
  }
  const buyer = await getUserById(ctx, paid.userId);
  await writeAudit(ctx, {
    actor: input.actor ?? { id: buyer.id, username: buyer.username, ip: null },
    action: 'payment.paid',
    target: { type: 'order', id: paid.id, label: `${orderNumberOf(paid)} (${buyer.username})` },
    after: { grants: paid.grants, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
  });
  invalidateUserPermissions(ctx, paid.userId);
  return dated;
}

/** pending -> failed, expired or cancelled, giving the voucher use back. Undefined when not pending any more. */
export async function closeOrder(
  ctx: AppContext,
  input: { orderId: string; status: 'failed' | 'expired' | 'cancelled' },
): Promise<OrderRow | undefined> {
  const now = new Date();
  const [closed] = await ctx.db
    .update(orders)
    .set({ status: input.status, updatedAt: now, ...(input.status === 'failed' ? { failedAt: now } : {}) })
    .where(and(eq(orders.id, input.orderId), eq(orders.status, 'pending')))
    .returning();
  if (closed?.voucherId) await releaseVoucherRedemption(ctx, { orderId: closed.id });
  return closed;
}

/**
 * Starts a checkout: prices the package (with a voucher, used at once and given back if the
 * payment does not happen), then asks the payment provider for a checkout page. Nothing to pay
 * (gift voucher, 100 % off): paid and fulfilled at once. One checkout at a time: one still pending
 * is replaced (cancelled, its voucher use given back first), so retries never pile up and a code
 * the customer applied again is theirs to use.
 */
export async function createOrder(
  ctx: AppContext,
  input: { userId: string; packageId: string; voucherCode?: string; ip: string },
): Promise<Order> {
  if (input.voucherCode) await limitVoucherGuesses(ctx, { userId: input.userId, ip: input.ip });
  const provider = ctx.payments;
  const orderId = newId();
  const replaced: OrderRow[] = [];
  const created = await inTransaction(ctx, async (tx) => {
    await lockCustomer(tx, input.userId);
    replaced.push(...(await cancelPendingOrdersOf(tx, input.userId)));
    const pkg = await getBuyablePackage(tx, input.packageId);
    const voucher = input.voucherCode
      ? await reserveVoucher(tx, {
          code: input.voucherCode,
          userId: input.userId,
          packageId: pkg.id,
          orderId,
        })
      : undefined;
    const discountCents = voucher ? discountOf(voucher, pkg.priceCents) : 0;
    const amountCents = pkg.priceCents - discountCents;
    const now = new Date();
    const [row] = await tx.db
      .insert(orders)
      .values({
        id: orderId,
        userId: input.userId,
        packageId: pkg.id,
        packageName: pkg.name,
        durationDays: pkg.durationDays,
        grants: pkg.grants,
        whitelistSlots: pkg.whitelistSlots,
        provider: amountCents === 0 ? 'voucher' : provider.name,
        priceCents: pkg.priceCents,
        discountCents,
        amountCents,
        currency: pkg.currency,
        voucherId: voucher?.id ?? null,
        voucherCode: voucher?.code ?? null,
        expiresAt: new Date(now.getTime() + PENDING_ORDER_TTL_MS),
      })
      .returning();
    if (!row) throw new AppError('INTERNAL');
    if (amountCents > 0) return row;
    return (await fulfilOrder(tx, { orderId: row.id, from: ['pending'] })) ?? row;
  });
  await closeCheckoutsAtProvider(ctx, replaced);
  if (created.status === 'paid') return toOrder(created);
  try {
    const customer = await getUserById(ctx, input.userId);
    const checkout = await provider.createCheckout(created, { email: customer.email });
    // A remote call cannot sit inside a transaction: the order was committed first, and its reference
    // is stored in a write of its own (decision 009, "Writes around a use case's transaction").
    const [started] = await ctx.db
      .update(orders)
      .set({ providerRef: checkout.providerRef, checkoutUrl: checkout.checkoutUrl, updatedAt: new Date() })
      .where(eq(orders.id, created.id))
      .returning();
    return toOrder(started ?? created);
  } catch (error) {
    ctx.log.error({ err: error, orderId: created.id }, 'ouverture du paiement en échec');
    await inTransaction(ctx, (tx) => closeOrder(tx, { orderId: created.id, status: 'failed' }));
    throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
  }
}

async function cancelPendingOrdersOf(ctx: AppContext, userId: string): Promise<OrderRow[]> {
  const cancelled: OrderRow[] = [];
  for (const id of await pendingOrderIdsOf(ctx, userId)) {
    const closed = await closeOrder(ctx, { orderId: id, status: 'cancelled' });
    if (closed) cancelled.push(closed);
  }
  return cancelled;
}

async function pendingOrderIdsOf(ctx: AppContext, userId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'pending')));
  return rows.map((row) => row.id);
}

/** A code's prices for this customer: their pending checkout's use is theirs (a new one gives it back). */
export async function previewCheckoutVoucher(
  ctx: AppContext,
  input: { userId: string; ip: string; code: string; packageId?: string },
): Promise<VoucherPreview> {
  return previewVoucher(ctx, { ...input, releasableOrderIds: await pendingOrderIdsOf(ctx, input.userId) });
}

/**
 * Closes the provider's checkout pages of cancelled orders, so nobody pays for them later. Best
 * effort: a page left open expires by itself, and a payment that still arrives is honoured.
 */
async function closeCheckoutsAtProvider(ctx: AppContext, cancelled: OrderRow[]): Promise<void> {
  for (const order of cancelled) {
    try {
      await ctx.payments.cancelCheckout(order);
    } catch (error) {
      ctx.log.warn({ err: error, orderId: order.id }, 'fermeture de la page de paiement impossible');
    }
  }
}

/** The customer closes their checkout: the order is cancelled and its voucher use given back at once. */
export async function cancelMyOrder(
  ctx: AppContext,
  input: { userId: string; orderId: string },
): Promise<Order> {
  const order = await getOwnOrder(ctx, input);
  const cancelled = await inTransaction(ctx, (tx) =>
    closeOrder(tx, { orderId: order.id, status: 'cancelled' }),
  );
  if (!cancelled) throw new AppError('ORDER_NOT_PENDING');
  await closeCheckoutsAtProvider(ctx, [cancelled]);
  return toOrder(cancelled);
}

/** Expires unpaid checkouts past their time (run periodically and before listings). */
export async function expireStaleOrders(ctx: AppContext, userId?: string): Promise<number> {
  const stale = await ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pending'),
        lte(orders.expiresAt, new Date()),
        userId ? eq(orders.userId, userId) : undefined,
      ),
    )
    .limit(500);
  let expired = 0;
  for (const { id } of stale) {
    const closed = await inTransaction(ctx, (tx) => closeOrder(tx, { orderId: id, status: 'expired' }));
    if (closed) expired += 1;
  }
  return expired;
}

export async function listMyOrders(ctx: AppContext, userId: string): Promise<Order[]> {
  await expireStaleOrders(ctx, userId);
  const rows = await ctx.db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(500);
  return rows.map(toOrder);
}

export async function findOrderById(ctx: AppContext, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

/** The customer's own order; another customer's is a 404, never a 403 (ids are not confirmed). */
export async function getOwnOrder(
  ctx: AppContext,
  input: { userId: string; orderId: string },
): Promise<OrderRow> {
  const row = await findOrderById(ctx, input.orderId);
  if (!row || row.userId !== input.userId) throw new AppError('ORDER_NOT_FOUND');
  return row;
}

/** Running subscriptions: per package, the end of the last paid period. */
export async function listSubscriptions(ctx: AppContext, userId: string): Promise<PackageSubscription[]> {
  const rows = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'paid'), gt(orders.endsAt, new Date())))
    .orderBy(asc(orders.endsAt));
  const byPackage = new Map<string, PackageSubscription>();
  for (const row of rows) {
    byPackage.set(row.packageId, {
      packageId: row.packageId,
      packageName: row.packageName,
      grants: row.grants,
      whitelistSlots: row.whitelistSlots,
      endsAt: (row.endsAt as Date).toISOString(),
    });
  }
  return [...byPackage.values()];
}

/** Whitelist slots a customer holds now: the slots of every paid period running at this instant. */
export async function countWhitelistSlots(ctx: AppContext, userId: string): Promise<number> {
  const now = new Date();
  const [row] = await ctx.db
    .select({ value: sum(orders.whitelistSlots) })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.status, 'paid'),
        lte(orders.startsAt, now),
        gt(orders.endsAt, now),
      ),
    );
  return Number(row?.value ?? 0);
}

/** Order states by id (voucher redemption lists). */
export async function findOrderStatuses(ctx: AppContext, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(inArray(orders.id, orderIds));
  return new Map(rows.map((row) => [row.id, row.status]));
}
