import type { Order } from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import {
  closeOrder,
  fulfilOrder,
  getOwnOrder,
  markOrderRefunded,
  type OrderRow,
  orders,
  toOrder,
} from '../orders/index.ts';
import { paymentEvents } from './payment-webhooks.table.ts';

/** What the sandbox checkout page's buttons do. */
export async function actOnSandboxCheckout(
  ctx: AppContext,
  input: { userId: string; orderId: string; action: 'succeed' | 'fail' | 'abandon' },
): Promise<Order> {
  if (ctx.config.stripe) throw new AppError('SANDBOX_DISABLED');
  const order = await getOwnOrder(ctx, input);
  if (order.provider !== 'sandbox') throw new AppError('ORDER_NOT_FOUND');
  const changed = await inTransaction(ctx, async (tx) => {
    if (input.action === 'succeed') {
      if (order.expiresAt <= new Date()) {
        await closeOrder(tx, { orderId: order.id, status: 'expired' });
        return undefined;
      }
      return fulfilOrder(tx, { orderId: order.id, from: ['pending'] });
    }
    return closeOrder(tx, { orderId: order.id, status: input.action === 'fail' ? 'failed' : 'cancelled' });
  });
  if (!changed) throw new AppError('ORDER_NOT_PENDING');
  return toOrder(changed);
}

type CheckoutSession = Stripe.Checkout.Session;

async function findStripeOrder(ctx: AppContext, session: CheckoutSession): Promise<OrderRow | undefined> {
  const [bySession] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.provider, 'stripe'), eq(orders.providerRef, session.id)));
  if (bySession) return bySession;
  // The session id is stored just after Stripe answers: a very fast webhook may come before.
  const orderId = session.metadata?.orderId ?? session.client_reference_id;
  if (!orderId || !/^[0-9a-f-]{36}$/i.test(orderId)) return undefined;
  const [byId] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.provider, 'stripe'), eq(orders.id, orderId)));
  return byId;
}

const paymentIntentOf = (session: CheckoutSession): string | null =>
  typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);

/**
 * Handles one verified Stripe event exactly once: its id is recorded in the same transaction as
 * its effect, so a replay (or a concurrent duplicate delivery) finds it and does nothing, and the
 * order's conditional state change makes any order of deliveries fulfil at most once.
 */
export async function handleStripeEvent(ctx: AppContext, event: Stripe.Event): Promise<{ outcome: string }> {
  const outcome = await inTransaction(ctx, async (tx) => {
    const [recorded] = await tx.db
      .insert(paymentEvents)
      .values({ id: newId(), provider: 'stripe', eventId: event.id, type: event.type, outcome: 'processing' })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!recorded) return 'duplicate';
    const result = await applyStripeEvent(tx, event);
    await tx.db
      .update(paymentEvents)
      .set({ outcome: result.outcome, orderId: result.orderId ?? null })
      .where(eq(paymentEvents.id, recorded.id));
    return result.outcome;
  });
  ctx.log.info({ eventId: event.id, type: event.type, outcome }, 'événement Stripe');
  return { outcome };
}

const STRIPE_ACTOR = { id: null, username: 'stripe', ip: null };

async function applyStripeEvent(
  ctx: TxContext,
  event: Stripe.Event,
): Promise<{ outcome: string; orderId?: string }> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      const order = await findStripeOrder(ctx, session);
      if (!order) return { outcome: 'unknown_order' };
      if (session.payment_status === 'unpaid') return { outcome: 'awaiting_payment', orderId: order.id };
      if (session.amount_total !== order.amountCents || session.currency?.toUpperCase() !== order.currency)
        return { outcome: 'amount_mismatch', orderId: order.id };
      const paid = await fulfilOrder(ctx, {
        orderId: order.id,
        from: ['pending', 'expired', 'failed', 'cancelled'],
        providerPaymentRef: paymentIntentOf(session),
        actor: STRIPE_ACTOR,
      });
      return { outcome: paid ? 'fulfilled' : `already_${order.status}`, orderId: order.id };
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = event.data.object;
      const order = await findStripeOrder(ctx, session);
      if (!order) return { outcome: 'unknown_order' };
      const status = event.type === 'checkout.session.expired' ? 'expired' : 'failed';
      const closed = await closeOrder(ctx, { orderId: order.id, status });
      return { outcome: closed ? status : `already_${order.status}`, orderId: order.id };
    }
    case 'charge.refunded': {
      // A refund made in Stripe's dashboard (or ours, echoed back): only a full refund revokes.
      const charge = event.data.object;
      const paymentIntent =
        typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      if (!paymentIntent) return { outcome: 'unknown_order' };
      const [order] = await ctx.db
        .select()
        .from(orders)
        .where(and(eq(orders.provider, 'stripe'), eq(orders.providerPaymentRef, paymentIntent)));
      if (!order) return { outcome: 'unknown_order' };
      if (!charge.refunded) return { outcome: 'partial_refund', orderId: order.id };
      const refunded = await markOrderRefunded(ctx, {
        orderId: order.id,
        actor: STRIPE_ACTOR,
        reason: 'Remboursement Stripe',
      });
      return { outcome: refunded ? 'refunded' : `already_${order.status}`, orderId: order.id };
    }
    default:
      return { outcome: 'ignored' };
  }
}
