import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { retentionStart } from '../../core/batched-delete.ts';
import {
  backoffMs,
  claimDueRows,
  coalescedDrain,
  type OutboxOptions,
  pruneFinishedRows,
  recordFailedAttempt,
} from '../../core/outbox.ts';
import { getSettings } from '../settings/index.ts';
import { discordOutbox } from './alerts.table.ts';
import { clearChannelFailure, healthNoted, recordChannelFailure } from './channel-health.ts';
import { openWebhook, webhookDigest } from './discord-webhooks.ts';

const OUTBOX: OutboxOptions = { table: discordOutbox, batchSize: 20, claimSeconds: 60 };
const REQUEST_TIMEOUT_MS = 10_000;

interface ClaimedRow {
  id: string;
  url_sealed: string | null;
  /** A message an older node queued in clear while this one already ran (a rolling upgrade). */
  url: string | null;
  webhook_digest: string | null;
  payload: Record<string, unknown>;
  attempts: number;
}

interface ClaimedMessage {
  id: string;
  url: string;
  /** Whose channel it is (channel-health.ts). */
  webhookDigest: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/** What Discord's answer means for the message. */
type Outcome = { sent: true } | { sent: false; error: string; retryAfterMs?: number; isPermanent?: boolean };

/**
 * Sends queued Discord webhook messages (decision 902): at once when asked (`drain`) and every
 * `pollMs`. A 429 waits for Discord's `retry_after`; a network error or a 5xx retries with backoff;
 * a webhook Discord says is gone (401, 403, 404) is given up at once. Claims skip rows another node
 * holds, so N nodes never send twice.
 */
export function createDiscordOutbox(ctx: AppContext): { drain: () => Promise<void> } {
  return { drain: coalescedDrain(() => sendDueBatch(ctx), OUTBOX.batchSize) };
}

/**
 * Deletes the messages sent or given up more than `discordRetentionDays` ago; waiting ones stay
 * (the retention loop, docs/capacity.md).
 */
export async function pruneSentDiscordMessages(ctx: AppContext, now = new Date()): Promise<number> {
  const { discordRetentionDays } = await getSettings(ctx);
  return pruneFinishedRows(ctx.db, discordOutbox, retentionStart(now, discordRetentionDays));
}

async function sendDueBatch(ctx: AppContext): Promise<number> {
  const rows = await claimDueRows<ClaimedRow>(
    ctx.db,
    OUTBOX,
    sql`id, url_sealed, url, webhook_digest, payload, attempts`,
  );
  for (const row of rows) {
    // The webhook is stored sealed (discord-webhooks.ts): opened only to post.
    const url = openWebhook(ctx.sealingKey, { sealed: row.url_sealed, legacy: row.url }) ?? '';
    const digest = row.webhook_digest ?? webhookDigest(url);
    await sendOne(ctx, { ...row, url, webhookDigest: digest });
  }
  return rows.length;
}

async function sendOne(ctx: AppContext, message: ClaimedMessage): Promise<void> {
  const outcome = await post(ctx, message);
  if (outcome.sent) {
    await ctx.db
      .update(discordOutbox)
      .set({ sentAt: new Date(), lockedUntil: null })
      .where(eq(discordOutbox.id, message.id));
    await healthNoted(ctx, () =>
      clearChannelFailure(ctx, { channel: 'discord', target: { webhookDigest: message.webhookDigest } }),
    );
    return;
  }
  const attempts = message.attempts + 1;
  const { discordRetryBaseMs, discordMaxAttempts } = ctx.config.alerts;
  const isGivingUp = outcome.isPermanent === true || attempts >= discordMaxAttempts;
  ctx.log.warn(
    { messageId: message.id, attempts, isGivingUp, error: outcome.error },
    'envoi Discord en échec',
  );
  await recordFailedAttempt(ctx.db, discordOutbox, {
    id: message.id,
    attempts,
    error: outcome.error,
    delayMs: outcome.retryAfterMs ?? backoffMs(discordRetryBaseMs, attempts),
    isGivingUp,
  });
  // Given up: the webhook is gone or Discord keeps failing; its owners are told once (decision 907).
  if (isGivingUp) {
    await healthNoted(ctx, () =>
      recordChannelFailure(ctx, {
        channel: 'discord',
        target: { webhookDigest: message.webhookDigest },
        error: `Discord a répondu ${outcome.error}`,
      }),
    );
  }
}

async function post(ctx: AppContext, message: ClaimedMessage): Promise<Outcome> {
  try {
    const response = await fetch(webhookAddress(ctx, message.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message.payload),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      // The address was checked to be Discord's: a redirect would send the message (and the next
      // ones) wherever the answer points, an internal service included. Discord never redirects.
      redirect: 'error',
    });
    if (response.ok) return { sent: true };
    const error = `HTTP ${response.status}`;
    if (response.status === 429) return { sent: false, error, retryAfterMs: await retryAfterMs(response) };
    await response.body?.cancel();
    return { sent: false, error, isPermanent: [401, 403, 404].includes(response.status) };
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message;
    if (cause === 'unexpected redirect')
      return { sent: false, error: 'redirection refusée', isPermanent: true };
    return { sent: false, error: (error as Error).message ?? String(error) };
  }
}

/** Discord answers 429 with `{ retry_after }` in seconds (and a Retry-After header). */
async function retryAfterMs(response: Response): Promise<number> {
  const body = (await response.json().catch(() => ({}))) as { retry_after?: unknown };
  const seconds =
    typeof body.retry_after === 'number'
      ? body.retry_after
      : Number(response.headers.get('retry-after') ?? 1);
  return Math.min(Math.max(Number.isFinite(seconds) ? seconds : 1, 0) * 1000, 3_600_000);
}

/** Tests point Discord elsewhere (`DISCORD_API_URL`); the stored URL keeps what the user pasted. */
function webhookAddress(ctx: AppContext, url: string): string {
  const base = ctx.config.alerts.discordApiUrl;
  if (!base) return url;
  const { pathname } = new URL(url);
  return `${base.replace(/\/+$/, '')}${pathname}`;
}
