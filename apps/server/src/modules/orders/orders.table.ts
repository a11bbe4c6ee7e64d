import { type BotPermission, ORDER_STATUSES } from '@bot/contracts';
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';
import { packages } from '../catalog/index.ts';
import { userIdColumn } from '../users/index.ts';

/**
 * One checkout. What was bought is copied (name, duration, grants, slots, price) so later package
 * edits never change a past order or its receipt.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey(),
    number: bigserial('number', { mode: 'number' }).notNull(),
    userId: userIdColumn(),
    packageId: uuid('package_id')
      .notNull()
      .references(() => packages.id),
    packageName: text('package_name').notNull(),
    durationDays: integer('duration_days').notNull(),
    grants: json('grants').$type<BotPermission[]>().notNull(),
    whitelistSlots: integer('whitelist_slots').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'voucher'] }).notNull(),
    /** The provider's id for the checkout (Stripe Checkout Session id). */
    providerRef: text('provider_ref'),
    /** Stripe PaymentIntent, for refunds. */
    providerPaymentRef: text('provider_payment_ref'),
    checkoutUrl: text('checkout_url'),
    priceCents: integer('price_cents').notNull(),
    discountCents: integer('discount_cents').notNull().default(0),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    voucherId: uuid('voucher_id'),
    voucherCode: text('voucher_code'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** A pending order not paid by then expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundedById: uuid('refunded_by_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_number_idx').on(t.number),
    index('orders_user_idx').on(t.userId, t.createdAt),
    index('orders_status_created_idx').on(t.status, t.createdAt),
    index('orders_created_idx').on(t.createdAt),
    uniqueIndex('orders_provider_ref_idx')
      .on(t.provider, t.providerRef)
      .where(sql`${t.providerRef} is not null`),
  ],
);

export type OrderRow = typeof orders.$inferSelect;
