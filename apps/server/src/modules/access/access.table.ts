import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { permissions } from '../roles/index.ts';
import { userIdColumn } from '../users/index.ts';

/** Direct grants, optionally until a date: given by staff or by a paid order. */
export const userGrants = pgTable(
  'user_grants',
  {
    id: uuid('id').primaryKey(),
    userId: userIdColumn(),
    permission: text('permission')
      .notNull()
      .references(() => permissions.name),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    source: text('source', { enum: ['manual', 'order'] })
      .notNull()
      .default('manual'),
    sourceId: uuid('source_id'),
    createdById: uuid('created_by_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('user_grants_user_idx').on(t.userId),
    index('user_grants_source_idx').on(t.sourceId),
    index('user_grants_expires_idx').on(t.expiresAt),
  ],
);

export type GrantRow = typeof userGrants.$inferSelect;
