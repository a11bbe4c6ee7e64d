import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: json('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedById: uuid('updated_by_id'),
});

/**
 * Values every node shares that are not settings: the master key's check (secrets-at-rest.ts). No
 * key lives here any more (docs/decisions/913-master-key-outside-the-data.md).
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
