import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    discordId: text('discord_id'),
    hwid: text('hwid'),
    hwidResetAt: timestamp('hwid_reset_at', { withTimezone: true }),
    /** The PC unbound last, and when: its still-running bot may not take the binding back at once. */
    releasedHwid: text('released_hwid'),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    referral: text('referral'),
    referredById: uuid('referred_by_id'),
    isAdministrator: boolean('is_administrator').notNull().default(false),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    banReason: text('ban_reason'),
    botKeyHash: text('bot_key_hash'),
    botKeySealed: text('bot_key_sealed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_hwid_idx').on(t.hwid),
    uniqueIndex('users_bot_key_hash_idx').on(t.botKeyHash),
    index('users_created_at_idx').on(t.createdAt),
    // Trigram indexes (pg_trgm): the admin list's search, `ILIKE '%q%'` on these four columns, reads
    // them instead of every row once q has 3 characters or more (docs/decisions/405).
    index('users_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_discord_id_trgm_idx').using('gin', t.discordId.op('gin_trgm_ops')),
    index('users_hwid_trgm_idx').using('gin', t.hwid.op('gin_trgm_ops')),
  ],
);

/** `user_id`: the account a row belongs to, deleted with it. */
export const userIdColumn = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export type UserRow = typeof users.$inferSelect;
