import { WEBHOOK_FAILURES_WINDOW_MINUTES } from '@bot/contracts';
import { and, asc, desc, eq, gte, lt } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { newId } from '../../core/ids.ts';
import { paymentWebhookCalls } from './payment-webhooks.table.ts';

/** Webhook calls are kept this long (the alert reads minutes of them; operators a few days). */
const KEEP_CALLS_MS = 7 * 86_400_000;

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

/** Forgets calls older than a week. */
export async function pruneWebhookCalls(ctx: AppContext, now: Date): Promise<void> {
  await ctx.db
    .delete(paymentWebhookCalls)
    .where(lt(paymentWebhookCalls.at, new Date(now.getTime() - KEEP_CALLS_MS)));
}
