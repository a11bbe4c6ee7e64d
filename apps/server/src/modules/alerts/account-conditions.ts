import { and, desc, eq, gt, gte, ne, or } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { orders } from '../orders/index.ts';
import type { HoldingCondition } from './alert-conditions.ts';

const DAY_MS = 86_400_000;
/** "A package expiring in 3 days". */
const EXPIRING_WITHIN_MS = 3 * DAY_MS;
/** Payments are told about for this long after they happen (then their incident ends, silently). */
const PAYMENT_WINDOW_MS = 3_600_000;

const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const frenchDate = (date: Date) =>
  `${date.toLocaleString('fr-FR', { timeZone: 'Europe/Paris', dateStyle: 'long', timeStyle: 'short' })} (heure de Paris)`;

/**
 * Each package whose last paid period ends within 3 days: one condition per order (a renewal moves
 * the end further, the condition stops, its incident ends without a message).
 */
export async function expiringPackages(
  ctx: AppContext,
  userId: string,
  now: Date,
): Promise<HoldingCondition[]> {
  const latest = await ctx.db
    .selectDistinctOn([orders.packageId], { id: orders.id, name: orders.packageName, endsAt: orders.endsAt })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'paid'), gt(orders.endsAt, now)))
    .orderBy(orders.packageId, desc(orders.endsAt));
  return latest.flatMap(({ id, name, endsAt }) =>
    endsAt && endsAt.getTime() - now.getTime() <= EXPIRING_WITHIN_MS
      ? [
          {
            rule: 'package_expiring' as const,
            subject: id,
            since: now,
            message: null,
            text: {
              kind: 'alert' as const,
              title: 'Votre offre se termine bientôt',
              body: `Votre offre ${name} se termine le ${frenchDate(endsAt)}. Renouvelez-la dans la boutique pour que votre bot continue.`,
            },
          },
        ]
      : [],
  );
}

/** Payments (not vouchers) that succeeded or failed in the last hour: one condition per order. */
export async function recentPayments(
  ctx: AppContext,
  userId: string,
  now: Date,
): Promise<HoldingCondition[]> {
  const since = new Date(now.getTime() - PAYMENT_WINDOW_MS);
  const rows = await ctx.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        ne(orders.provider, 'voucher'),
        or(
          and(eq(orders.status, 'paid'), gte(orders.paidAt, since)),
          and(eq(orders.status, 'failed'), gte(orders.failedAt, since)),
        ),
      ),
    );
  return rows.map((order) => {
    const amount = euros.format(order.amountCents / 100);
    const isPaid = order.status === 'paid';
    return {
      rule: isPaid ? ('payment_succeeded' as const) : ('payment_failed' as const),
      subject: order.id,
      since: (isPaid ? order.paidAt : order.failedAt) ?? now,
      message: null,
      text: isPaid
        ? {
            kind: 'info' as const,
            title: 'Paiement reçu',
            body: `Votre paiement de ${amount} pour l’offre ${order.packageName} est confirmé (commande n° ${order.number}).`,
          }
        : {
            kind: 'alert' as const,
            title: 'Paiement échoué',
            body: `Le paiement de ${amount} pour l’offre ${order.packageName} (commande n° ${order.number}) a échoué. Vous pouvez réessayer depuis la boutique.`,
          },
    };
  });
}
