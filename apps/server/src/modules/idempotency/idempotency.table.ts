import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';
import { userIdColumn } from '../users/index.ts';

/**
 * One row per `Idempotency-Key` a signed-in session sent to one route: claimed (`response_status`
 * null) while the first request runs, then holding its answer for replays until `expires_at`.
 * In the database, so the promise holds whichever node a retry reaches. Answers carrying a secret
 * (recovery codes, a TOTP secret, a bot key) are never written here: those routes refuse keys.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: userIdColumn(),
    /** The session that sent the key: another session of the same user never gets its answer. */
    sessionId: uuid('session_id').notNull(),
    key: text('key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status'),
    responseBody: json('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.sessionId, table.key, table.route] })],
);
