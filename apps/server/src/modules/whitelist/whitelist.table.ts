import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { userIdColumn } from '../users/index.ts';

/**
 * Game accounts a customer's bot may drive. A game account belongs to one customer at a time:
 * names are unique case-insensitively across all customers.
 */
export const whitelistEntries = pgTable(
  'whitelist_entries',
  {
    id: uuid('id').primaryKey(),
    userId: userIdColumn(),
    name: text('name').notNull(),
    createdById: uuid('created_by_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whitelist_entries_name_lower_idx').on(sql`lower(${t.name})`),
    index('whitelist_entries_user_idx').on(t.userId),
  ],
);

export type WhitelistEntryRow = typeof whitelistEntries.$inferSelect;
