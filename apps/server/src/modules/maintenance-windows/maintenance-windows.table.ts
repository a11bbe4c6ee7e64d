import { MAINTENANCE_SCOPES } from '@bot/contracts';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/index.ts';

/**
 * Scheduled maintenance windows (decision 907): while one runs, the alerts of its scope are muted
 * and the banner shows its message. Cancelled ones are kept (listed, audited), `cancelled_at` set.
 */
export const maintenanceWindows = pgTable(
  'maintenance_windows',
  {
    id: uuid('id').primaryKey(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    message: text('message').notNull(),
    scope: text('scope', { enum: MAINTENANCE_SCOPES }).notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [index('maintenance_windows_ends_idx').on(t.endsAt)],
);
