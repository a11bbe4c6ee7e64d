import type { BotPermission } from '@bot/contracts';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';

/** What customers buy. Retired packages stay for the orders that reference them. */
export const packages = pgTable(
  'packages',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    durationDays: integer('duration_days').notNull(),
    grants: json('grants').$type<BotPermission[]>().notNull().default([]),
    whitelistSlots: integer('whitelist_slots').notNull().default(0),
    sortOrder: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('packages_sort_idx').on(t.sortOrder)],
);

export type PackageRow = typeof packages.$inferSelect;
