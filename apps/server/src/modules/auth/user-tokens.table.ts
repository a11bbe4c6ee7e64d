import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { userIdColumn } from '../users/index.ts';

/** Single-use activation and password-reset tokens, stored as hashes. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: userIdColumn(),
    kind: text('kind', { enum: ['activation', 'reset'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The mailbox the link was mailed to, normalised (`mailboxOf`): a mailbox holds at most a few
     * unused links (decision 914). Null for links issued before the cap, which it never counts.
     */
    mailbox: text('mailbox'),
  },
  (t) => [
    uniqueIndex('user_tokens_hash_idx').on(t.tokenHash),
    index('user_tokens_user_idx').on(t.userId),
    index('user_tokens_unused_mailbox_idx').on(t.mailbox).where(sql`${t.usedAt} is null`),
  ],
);
