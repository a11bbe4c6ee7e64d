import { BOT_LOG_LEVELS } from '@bot/contracts';
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { userIdColumn } from '../users/index.ts';

/**
 * Lines of the bots' own logs (decision 209), streamed only while someone reads the journal and
 * kept `botLogRetentionDays`. The identity orders them as they were received. A line belongs to the
 * PC's owner when it was written (`user_id`, `hwid`): it is read by that pair and goes when that
 * owner unbinds the PC, so the PC's next owner never reads it.
 */
export const botLogLines = pgTable(
  'bot_log_lines',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: userIdColumn(),
    hwid: text('hwid').notNull(),
    level: text('level', { enum: BOT_LOG_LEVELS }).notNull(),
    /** When the agent wrote it (its own clock). */
    time: timestamp('time', { withTimezone: true }).notNull(),
    message: text('message').notNull(),
    /** `server`: the hub's own line (lines dropped past the rate limit). */
    origin: text('origin', { enum: ['agent', 'server'] }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** The agent's id of the line (decision 923): a line it sends again is kept once; null: none given. */
    agentLineId: text('agent_line_id'),
  },
  (t) => [
    index('bot_log_lines_user_hwid_id_idx').on(t.userId, t.hwid, t.id),
    index('bot_log_lines_received_idx').on(t.receivedAt),
    uniqueIndex('bot_log_lines_agent_line_idx').on(t.userId, t.hwid, t.agentLineId),
  ],
);

export type BotLogLineRow = typeof botLogLines.$inferSelect;
