import { BOT_COMMAND_KINDS, BOT_COMMAND_STATES } from '@bot/contracts';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';
import { userIdColumn } from '../users/index.ts';

/**
 * Remote commands to a PC's bot agent (decision 208), with their state. Only the agent's
 * acknowledgement moves one past `sent`; the expiry sweep ends those not acknowledged in time.
 */
export const botCommands = pgTable(
  'bot_commands',
  {
    id: uuid('id').primaryKey(),
    hwid: text('hwid').notNull(),
    /** The bot's owner when it was sent. */
    userId: userIdColumn(),
    kind: text('kind', { enum: BOT_COMMAND_KINDS }).notNull(),
    payload: json('payload').$type<Record<string, unknown>>().notNull().default({}),
    state: text('state', { enum: BOT_COMMAND_STATES }).notNull(),
    /** failed: the agent's message; cancelled: why. */
    message: text('message'),
    issuerId: uuid('issuer_id'),
    issuerUsername: text('issuer_username'),
    /** Sent by staff (a customer reads "l’équipe"). */
    issuedByStaff: boolean('issued_by_staff').notNull(),
    /** Times emitted on the agent's socket (a reconnection re-sends one not acknowledged). */
    deliveries: integer('deliveries').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('bot_commands_hwid_created_idx').on(t.hwid, t.createdAt),
    index('bot_commands_state_expires_idx').on(t.state, t.expiresAt),
    // The retention loop reads the commands finished long ago (src/retention.ts).
    index('bot_commands_updated_idx').on(t.updatedAt),
  ],
);

export type BotCommandRow = typeof botCommands.$inferSelect;
