import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { Gauge } from 'prom-client';
import { repeatInBackground } from '../../core/background.ts';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/ids.ts';
import type { MailMessage } from '../../core/mailer.ts';
import type { DbOrTx } from '../../db/client.ts';
import { mailOutbox } from './mail-outbox.table.ts';

/** Mails one drain claims at a time. */
const BATCH_SIZE = 20;
/** How long a claimed row stays with the worker that claimed it (another node skips it meanwhile). */
const CLAIM_SECONDS = 120;

/** Queues a mail (in the caller's transaction when given); the outbox worker sends it. */
export async function queueMail(ctx: AppContext, message: MailMessage, db: DbOrTx = ctx.db): Promise<void> {
  await db.insert(mailOutbox).values({
    id: newId(),
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
  });
  ctx.events.emit('mail.queued', {});
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

/**
 * The worker: drains due mails at once when one is queued, and every `pollMs` (retries, mails queued
 * by another node). Failures retry with exponential backoff; after `maxAttempts` the mail is marked
 * failed and stays visible. Claims skip rows another node holds, so N nodes never send twice.
 */
export function startMailOutbox(ctx: AppContext): void {
  let isDraining = false;
  let isDrainAsked = false;
  const drain = async () => {
    if (isDraining) {
      isDrainAsked = true;
      return;
    }
    isDraining = true;
    try {
      do {
        isDrainAsked = false;
        while ((await sendDueBatch(ctx)) === BATCH_SIZE) {}
      } while (isDrainAsked);
    } finally {
      isDraining = false;
    }
  };
  const timer = repeatInBackground(ctx.log, 'mail outbox', ctx.config.mail.pollMs, drain);
  const unsubscribe = ctx.events.on('mail.queued', drain);
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
  ctx.onClose(() => {
    clearInterval(timer);
    unsubscribe();
  });
}

interface ClaimedMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attempts: number;
}

/** Claims due mails and sends them; answers how many were claimed. */
async function sendDueBatch(ctx: AppContext): Promise<number> {
  const claimed = await ctx.db.execute(sql`
    update ${mailOutbox} set locked_until = now() + make_interval(secs => ${CLAIM_SECONDS})
    where id in (
      select id from ${mailOutbox}
      where sent_at is null and failed_at is null and next_attempt_at <= now()
        and (locked_until is null or locked_until < now())
      order by next_attempt_at
      limit ${BATCH_SIZE}
      for update skip locked
    )
    returning id, "to", subject, text, html, attempts`);
  const rows = (claimed as unknown as { rows: ClaimedMail[] }).rows;
  for (const mail of rows) await sendOne(ctx, mail);
  return rows.length;
}

async function sendOne(ctx: AppContext, mail: ClaimedMail): Promise<void> {
  try {
    await ctx.mailer.send(mail);
    // Sent: the one-time links in the body are no longer needed, keep who/what/when only.
    await ctx.db
      .update(mailOutbox)
      .set({ sentAt: new Date(), text: '', html: '', lockedUntil: null })
      .where(eq(mailOutbox.id, mail.id));
  } catch (error) {
    const attempts = mail.attempts + 1;
    const { retryBaseMs, maxAttempts } = ctx.config.mail;
    const isGivingUp = attempts >= maxAttempts;
    const delayMs = Math.min(retryBaseMs * 2 ** (attempts - 1), 3_600_000);
    ctx.log.warn({ err: error, mailId: mail.id, attempts, isGivingUp }, 'envoi de mail en échec');
    await ctx.db
      .update(mailOutbox)
      .set({
        attempts,
        lastError: (error as Error).message?.slice(0, 500) ?? String(error),
        nextAttemptAt: new Date(Date.now() + delayMs),
        failedAt: isGivingUp ? new Date() : null,
        lockedUntil: null,
      })
      .where(and(eq(mailOutbox.id, mail.id), isNull(mailOutbox.sentAt), isNotNull(mailOutbox.lockedUntil)));
  }
}
