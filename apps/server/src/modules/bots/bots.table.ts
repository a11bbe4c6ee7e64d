import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';
import { userIdColumn } from '../users/index.ts';

/**
 * Sessions a bot agent opens with its user's access key. Stored as a token hash; bound to the
 * hwid and to the access key it was opened with (rotating the key ends it, on every node).
 */
export const botSessions = pgTable(
  'bot_sessions',
  {
    id: uuid('id').primaryKey(),
    userId: userIdColumn(),
    tokenHash: text('token_hash').notNull(),
    hwid: text('hwid').notNull(),
    /**
     * The hwid the agent sent, when its components made it the bound PC under another hwid (decision
     * 906): every lease of the session names it too, so the agent can tell its own PC's lease from
     * another's (docs/licensing.md). Null when the agent sent the bound hwid.
     */
    agentHwid: text('agent_hwid'),
    botKeyHash: text('bot_key_hash').notNull(),
    version: text('version').notNull(),
    ip: text('ip'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bot_sessions_token_hash_idx').on(t.tokenHash),
    index('bot_sessions_user_idx').on(t.userId),
    // The retention loop finds the sessions ended long ago by either end (src/retention.ts).
    index('bot_sessions_expires_idx').on(t.expiresAt),
    index('bot_sessions_revoked_idx').on(t.revokedAt),
  ],
);

/** Per-minute activity of one game account on one bot: stat deltas summed over the minute. */
export const botActivityMinutes = pgTable(
  'bot_activity_minutes',
  {
    userId: userIdColumn(),
    hwid: text('hwid').notNull(),
    account: text('account').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    gathered: integer('gathered').notNull().default(0),
    treasures: integer('treasures').notNull().default(0),
    kamas: integer('kamas').notNull().default(0),
    xp: integer('xp').notNull().default(0),
    /** Reports received in the minute (a presence measure). */
    reports: integer('reports').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.hwid, t.minute, t.account] }),
    index('bot_activity_minutes_minute_idx').on(t.minute),
  ],
);

/**
 * What happened to a PC's bot that nothing else records: its binding, its connections and
 * disconnections, its game accounts going into and out of `error` (the timeline, decision 901).
 */
export const botEvents = pgTable(
  'bot_events',
  {
    id: uuid('id').primaryKey(),
    hwid: text('hwid').notNull(),
    /** The owner at the time. */
    userId: userIdColumn(),
    kind: text('kind', {
      enum: [
        'bound',
        'component_changed',
        'pc_changed',
        'pc_refused',
        'connected',
        'disconnected',
        'error',
        'recovered',
        'crashed',
      ],
    }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /**
     * connected: version; disconnected: connectedAt; error/recovered: account, message;
     * crashed: version, message (the agent's previous run, told when its next session opened);
     * component_changed: components (their French names, comma-separated); pc_changed: the same,
     * changed since the PC's reference (counted as an unbind, decision 906); pc_refused: the same
     * parts and nextResetAt (such a change refused, no unbind left or the cooldown running).
     */
    detail: json('detail').$type<Record<string, string | null>>().notNull().default({}),
  },
  (t) => [
    index('bot_events_hwid_at_idx').on(t.hwid, t.at),
    // The retention loop reads the oldest events of every PC (src/retention.ts).
    index('bot_events_at_idx').on(t.at),
  ],
);

export type BotSessionRow = typeof botSessions.$inferSelect;
