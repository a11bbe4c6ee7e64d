import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { packages } from '../catalog/index.ts';
import { userIdColumn } from '../users/index.ts';

export const vouchers = pgTable(
  'vouchers',
  {
    id: uuid('id').primaryKey(),
    /** Stored upper-case. */
    code: text('code').notNull(),
    kind: text('kind', { enum: ['percent', 'fixed', 'gift'] }).notNull(),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    packageId: uuid('package_id').references(() => packages.id),
    maxRedemptions: integer('max_redemptions'),
    perCustomerLimit: integer('per_customer_limit'),
    redemptionsCount: integer('redemptions_count').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    active: boolean('active').notNull().default(true),
    note: text('note').notNull().default(''),
    createdById: uuid('created_by_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('vouchers_code_upper_idx').on(sql`upper(${t.code})`),
    index('vouchers_created_idx').on(t.createdAt),
  ],
);

export type VoucherRow = typeof vouchers.$inferSelect;

/** One use of a voucher by a customer, tied to the order it priced. */
export const voucherRedemptions = pgTable(
  'voucher_redemptions',
  {
    id: uuid('id').primaryKey(),
    voucherId: uuid('voucher_id')
      .notNull()
      .references(() => vouchers.id, { onDelete: 'cascade' }),
    userId: userIdColumn(),
    orderId: uuid('order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('voucher_redemptions_voucher_user_idx').on(t.voucherId, t.userId),
    uniqueIndex('voucher_redemptions_order_idx').on(t.orderId),
  ],
);
