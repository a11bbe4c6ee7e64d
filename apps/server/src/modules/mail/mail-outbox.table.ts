import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Mails waiting to be sent, written by the request that decides to send them and sent by a worker:
 * requests never wait on SMTP, and a mail survives an SMTP outage or a restart. The body (which
 * carries one-time links) is sealed under the master key from the start, so no clear copy ever
 * reaches the database's files, its WAL or a backup, and emptied once sent; the row stays for
 * operators (who, what, when). docs/security.md, "Storage".
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    /** `{text, html}` sealed under the master key (core/sealing.ts); null once sent or given up. */
    bodySealed: text('body_sealed'),
    /**
     * Before migration 0024 the bodies were stored in clear here. Never written any more: a waiting
     * mail of an older version is sealed at the first start (secrets-at-rest.ts), a sent one emptied.
     */
    legacyText: text('text'),
    legacyHtml: text('html'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A worker holds the row until then (another node skips it). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Given up after too many attempts: visible to operators, never retried by itself. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('mail_outbox_due_idx').on(table.nextAttemptAt),
    // The waiting mails (the backlog alert, the metrics) without reading the sent ones.
    index('mail_outbox_waiting_idx')
      .on(table.createdAt)
      .where(sql`${table.sentAt} is null and ${table.failedAt} is null`),
  ],
);
