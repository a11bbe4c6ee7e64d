import type { HwidComponents } from '@bot/contracts';
import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';
import { userIdColumn } from '../users/index.ts';

/**
 * The hashed hardware components beside a user's hwid (decision 906): `bound`, the reference of the
 * PC bound now (its parts as bound, or as last moved by a change counted as an unbind; its hwid is
 * `users.hwid`); `seen`, its parts as its agent last reported them when they differ from the
 * reference (a free part change follows them, the reference stays); `released`, the PC unbound
 * last (decision 207 judges it by them too). A PC bound by an agent that sends no components has no
 * row: it is one component, its hwid.
 */
export const hwidComponents = pgTable(
  'hwid_components',
  {
    userId: userIdColumn(),
    slot: text('slot', { enum: ['bound', 'seen', 'released'] }).notNull(),
    hwid: text('hwid').notNull(),
    components: json('components').$type<HwidComponents>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.slot] })],
);
export type HwidComponentsRow = typeof hwidComponents.$inferSelect;
