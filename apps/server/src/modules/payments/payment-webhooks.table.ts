import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Every call a payment provider made to its webhook and whether it was accepted: the fleet alert
 * "payment webhooks failing" (decision 903) reads the last minutes of it, on whatever node it runs.
 * Kept `paymentWebhookRetentionDays` (the retention loop, src/retention.ts), each provider’s newest
 * call always.
 */
export const paymentWebhookCalls = pgTable(
  'payment_webhook_calls',
  {
    id: uuid('id').primaryKey(),
    provider: text('provider').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The HTTP status the provider got (2xx accepted; 400 signature refused; 5xx our failure). */
    status: integer('status').notNull(),
    accepted: boolean('accepted').notNull(),
  },
  (t) => [index('payment_webhook_calls_at_idx').on(t.at)],
);

/** Every provider event handled once: a replayed delivery finds its id here and does nothing. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    orderId: uuid('order_id'),
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_events_event_idx').on(t.provider, t.eventId)],
);
