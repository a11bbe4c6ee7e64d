import { and, count, desc, eq, isNotNull, isNull, min, or, sql } from 'drizzle-orm';
import { Gauge } from 'prom-client';
import type { AppContext, TxContext } from '../../context.ts';
import { retentionStart } from '../../core/batched-delete.ts';
import { newId } from '../../core/ids.ts';
import type { MailMessage } from '../../core/mailer.ts';
import {
  backoffMs,
  claimDueRows,
  coalescedDrain,
  type OutboxOptions,
  pruneFinishedRows,
  recordFailedAttempt,
} from '../../core/outbox.ts';
import { reseal, seal, unseal } from '../../core/sealing.ts';
import { getSettings } from '../settings/index.ts';
import { mailOutbox } from './mail-outbox.table.ts';

const OUTBOX: OutboxOptions = { table: mailOutbox, batchSize: 20, claimSeconds: 120 };

/**
 * Queues a mail in the caller's transaction; the outbox worker sends it once that commits. The body is
 * sealed before it is written: a one-time link never reaches the database's files in clear
 * (docs/security.md, "Storage").
 */
export async function queueMail(tx: TxContext, message: MailMessage): Promise<void> {
  await tx.db.insert(mailOutbox).values({
    id: newId(),
    to: message.to,
    subject: message.subject,
    bodySealed: sealBody(tx.sealingKey, message),
  });
  tx.events.emit('mail.queued', {});
}

type MailBody = Pick<MailMessage, 'text' | 'html'>;

function sealBody(key: Buffer, body: MailBody): string {
  return seal(JSON.stringify({ text: body.text, html: body.html }), key);
}

/** The waiting mails' bodies sealed under another key (`npm run keys:master-rotate`, decision 913). */
export async function resealMailBodies(
  ctx: Pick<AppContext, 'db'>,
  from: Buffer,
  to: Buffer,
): Promise<number> {
  const rows = await ctx.db
    .select({ id: mailOutbox.id, sealed: mailOutbox.bodySealed })
    .from(mailOutbox)
    .where(isNotNull(mailOutbox.bodySealed));
  for (const row of rows)
    await ctx.db
      .update(mailOutbox)
      .set({ bodySealed: reseal(row.sealed!, from, to) })
      .where(eq(mailOutbox.id, row.id));
  return rows.length;
}

/**
 * Mails an older version queued with their body in clear (before migration 0024): sealed at start
 * and the clear columns emptied. Those already sent were emptied by the migration itself.
 */
export async function sealClearMailBodies(ctx: Pick<AppContext, 'db'>, key: Buffer): Promise<number> {
  const rows = await ctx.db
    .select({
      id: mailOutbox.id,
      text: mailOutbox.legacyText,
      html: mailOutbox.legacyHtml,
      isDone: sql<boolean>`${mailOutbox.sentAt} is not null or ${mailOutbox.failedAt} is not null`,
    })
    .from(mailOutbox)
    .where(or(isNotNull(mailOutbox.legacyText), isNotNull(mailOutbox.legacyHtml)));
  for (const row of rows) {
    const body = { text: row.text ?? '', html: row.html ?? '' };
    await ctx.db
      .update(mailOutbox)
      .set({ bodySealed: row.isDone ? null : sealBody(key, body), legacyText: null, legacyHtml: null })
      .where(eq(mailOutbox.id, row.id));
  }
  return rows.length;
}

/** Deletes the mails sent or given up more than `mailRetentionDays` ago; waiting ones stay (the retention loop). */
export async function pruneSentMails(ctx: AppContext, now = new Date()): Promise<number> {
  const { mailRetentionDays } = await getSettings(ctx);
  return pruneFinishedRows(ctx.db, mailOutbox, retentionStart(now, mailRetentionDays));
}

/** Waiting and given-up mails, for operators (metrics). */
export async function countMailOutbox(ctx: AppContext): Promise<{ pending: number; failed: number }> {
  const [row] = await ctx.db
    .select({
      pending: count(
        sql`case when ${mailOutbox.sentAt} is null and ${mailOutbox.failedAt} is null then 1 end`,
      ),
      failed: count(mailOutbox.failedAt),
    })
    .from(mailOutbox);
  return { pending: row?.pending ?? 0, failed: row?.failed ?? 0 };
}

/** Mails still waiting to be sent (neither sent nor given up): how many, since when, the last error. */
export async function mailBacklog(
  ctx: AppContext,
): Promise<{ waiting: number; oldest: Date | null; lastError: string | null }> {
  const waiting = and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt));
  const [row] = await ctx.db
    .select({ waiting: count(), oldest: min(mailOutbox.createdAt) })
    .from(mailOutbox)
    .where(waiting);
  const [errored] = await ctx.db
    .select({ lastError: mailOutbox.lastError })
    .from(mailOutbox)
    .where(and(waiting, isNotNull(mailOutbox.lastError)))
    .orderBy(desc(mailOutbox.nextAttemptAt))
    .limit(1);
  return { waiting: row?.waiting ?? 0, oldest: row?.oldest ?? null, lastError: errored?.lastError ?? null };
}

/**
 * The worker: drains due mails at once when one is queued, and every `pollMs` (retries, mails queued
 * by another node). Failures retry with exponential backoff; after `maxAttempts` the mail is marked
 * failed and stays visible. Claims skip rows another node holds, so N nodes never send twice.
 */
/**
 * What became of a mail, told to whoever follows the e-mail channel's health (the alerts module,
 * wired in app.ts): the outbox sits below the modules that queue mail and imports none of them.
 */
export interface MailDeliveryListener {
  delivered(to: string): Promise<void>;
  /** The SMTP server refused the address for good (5xx), or the retries ran out. */
  refused(to: string, error: string): Promise<void>;
}

export function createMailOutbox(
  ctx: AppContext,
  deliveries: MailDeliveryListener,
): { drain: () => Promise<void> } {
  new Gauge({
    name: 'mail_outbox_messages',
    help: 'Mails waiting to be sent (pending) and given up after every retry (failed)',
    labelNames: ['state'],
    registers: [ctx.metrics.registry],
    async collect() {
      const { pending, failed } = await countMailOutbox(ctx);
      this.set({ state: 'pending' }, pending);
      this.set({ state: 'failed' }, failed);
    },
  });
  return { drain: coalescedDrain(() => sendDueBatch(ctx, deliveries), OUTBOX.batchSize) };
}

interface ClaimedMail {
  id: string;
  to: string;
  subject: string;
  body_sealed: string | null;
  /** A mail an older node queued in clear while this one already ran (a rolling upgrade). */
  text: string | null;
  html: string | null;
  attempts: number;
}

/** Claims due mails and sends them; answers how many were claimed. */
async function sendDueBatch(ctx: AppContext, deliveries: MailDeliveryListener): Promise<number> {
  const rows = await claimDueRows<ClaimedMail>(
    ctx.db,
    OUTBOX,
    sql`id, "to", subject, body_sealed, text, html, attempts`,
  );
  for (const mail of rows) await sendOne(ctx, mail, deliveries);
  return rows.length;
}

function bodyOf(ctx: AppContext, mail: ClaimedMail): MailBody {
  if (mail.body_sealed) return JSON.parse(unseal(mail.body_sealed, ctx.sealingKey)) as MailBody;
  return { text: mail.text ?? '', html: mail.html ?? '' };
}

async function sendOne(ctx: AppContext, mail: ClaimedMail, deliveries: MailDeliveryListener): Promise<void> {
  try {
    await ctx.mailer.send({ to: mail.to, subject: mail.subject, ...bodyOf(ctx, mail) });
    // Sent: the one-time links in the body are no longer needed, keep who/what/when only.
    await ctx.db
      .update(mailOutbox)
      .set({ sentAt: new Date(), bodySealed: null, legacyText: null, legacyHtml: null, lockedUntil: null })
      .where(eq(mailOutbox.id, mail.id));
    await deliveries.delivered(mail.to);
  } catch (error) {
    const attempts = mail.attempts + 1;
    const { retryBaseMs, maxAttempts } = ctx.config.mail;
    const isGivingUp = attempts >= maxAttempts;
    ctx.log.warn({ err: error, mailId: mail.id, attempts, isGivingUp }, 'envoi de mail en échec');
    await recordFailedAttempt(ctx.db, mailOutbox, {
      id: mail.id,
      attempts,
      error: (error as Error).message ?? String(error),
      delayMs: backoffMs(retryBaseMs, attempts),
      isGivingUp,
    });
    // The SMTP server refused the address for good (5xx), or the retries ran out: the account's
    // mail channel is failing (decision 907).
    const code = (error as { responseCode?: unknown }).responseCode;
    if (isGivingUp || (typeof code === 'number' && code >= 500)) {
      await deliveries.refused(mail.to, (error as Error).message ?? String(error));
    }
  }
}
