import { WEBHOOK_FAILURES_WINDOW_MINUTES } from '@bot/contracts';
import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { deleteInBatches, retentionStart } from '../../core/batched-delete.ts';
import { newId } from '../../core/ids.ts';
import { orders } from '../orders/index.ts';
import { getSettings } from '../settings/index.ts';
import { paymentEvents, paymentWebhookCalls } from './payment-webhooks.table.ts';

/** Records one webhook call's outcome; a failed write (database away) is logged, never thrown. */
export async function recordWebhookCall(
  ctx: AppContext,
  call: { provider: string; status: number },
): Promise<void> {
  await ctx.db
    .insert(paymentWebhookCalls)
    .values({ id: newId(), provider: call.provider, status: call.status, accepted: call.status < 400 })
    .catch((error: unknown) => ctx.log.warn({ err: error }, 'appel de webhook non enregistré'));
}

export interface WebhookHealth {
  provider: string;
  /** Calls refused or failed within the window. */
  failures: number;
  /** The newest call ever recorded (undefined: none), inside the window or not. */
  last: { at: Date; accepted: boolean; status: number } | undefined;
  /** The oldest failure of the window. */
  failingSince: Date | undefined;
}

/**
 * The provider's failures of the last minutes (`WEBHOOK_FAILURES_WINDOW_MINUTES`) and its newest call:
 * a provider that stopped calling after failures has not recovered, whatever the window says.
 */
export async function webhookHealth(ctx: AppContext, provider: string, now: Date): Promise<WebhookHealth> {
  const since = new Date(now.getTime() - WEBHOOK_FAILURES_WINDOW_MINUTES * 60_000);
  const failures = await ctx.db
    .select({ at: paymentWebhookCalls.at })
    .from(paymentWebhookCalls)
    .where(
      and(
        eq(paymentWebhookCalls.provider, provider),
        eq(paymentWebhookCalls.accepted, false),
        gte(paymentWebhookCalls.at, since),
      ),
    )
    .orderBy(asc(paymentWebhookCalls.at));
  const [last] = await ctx.db
    .select({
      at: paymentWebhookCalls.at,
      accepted: paymentWebhookCalls.accepted,
      status: paymentWebhookCalls.status,
    })
    .from(paymentWebhookCalls)
    .where(eq(paymentWebhookCalls.provider, provider))
    .orderBy(desc(paymentWebhookCalls.at))
    .limit(1);
  return { provider, failures: failures.length, last, failingSince: failures[0]?.at };
}

/**
 * Forgets the calls older than `paymentWebhookRetentionDays` (the retention loop, docs/capacity.md),
 * except each provider's newest: the alert reads it to know whether a provider that stopped calling
 * after failures has recovered (`webhookHealth`).
 */
export async function pruneWebhookCalls(ctx: AppContext, now = new Date()): Promise<number> {
  const { paymentWebhookRetentionDays } = await getSettings(ctx);
  const before = retentionStart(now, paymentWebhookRetentionDays);
  return deleteInBatches(
    ctx.db,
    paymentWebhookCalls,
    sql`${lt(paymentWebhookCalls.at, before)} and ${paymentWebhookCalls.id} <> (
      select newest.id from ${paymentWebhookCalls} newest
      where newest.provider = ${paymentWebhookCalls.provider}
      order by newest.at desc limit 1)`,
  );
}

/**
 * Forgets the handled provider events older than `paymentWebhookRetentionDays` (the retention loop).
 * The event of an order still pending stays, whatever its age: a late delivery of the same event must
 * still find it and do nothing. The setting's floor of 30 days covers the provider's retries (3 days
 * at Stripe) and a resend from its dashboard (Stripe keeps events 30 days).
 */
export async function prunePaymentEvents(ctx: AppContext, now = new Date()): Promise<number> {
  const { paymentWebhookRetentionDays } = await getSettings(ctx);
  const before = retentionStart(now, paymentWebhookRetentionDays);
  return deleteInBatches(
    ctx.db,
    paymentEvents,
    sql`${lt(paymentEvents.receivedAt, before)} and not exists (
      select 1 from ${orders} pending
      where pending.id = ${paymentEvents.orderId} and pending.status = 'pending')`,
  );
}
