import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';

export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id'),
    actorUsername: text('actor_username'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    before: json('before'),
    after: json('after'),
    ip: text('ip'),
  },
  (t) => [
    index('audit_at_idx').on(t.at),
    // The trail filtered by actor (id, or name case-insensitively) newest first: the index gives the
    // page in order and counts the period without reading the table (docs/decisions/405).
    index('audit_actor_at_idx').on(t.actorId, t.at, t.id),
    index('audit_actor_name_at_idx').on(sql`lower(${t.actorUsername})`, t.at, t.id),
    index('audit_action_idx').on(t.action),
    index('audit_target_idx').on(t.targetType, t.targetId),
  ],
);
