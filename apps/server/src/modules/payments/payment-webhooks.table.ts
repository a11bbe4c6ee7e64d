import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every call a payment provider made to its webhook and whether it was accepted: the fleet alert
 * "payment webhooks failing" (decision 903) reads the last minutes of it, on whatever node it runs.
 * Rows older than a week are pruned by the alert evaluation.
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
