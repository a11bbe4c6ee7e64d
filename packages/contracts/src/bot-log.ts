import { z } from 'zod';

/**
 * The bot's own log, on demand (decision 209): while someone watches "Journal du bot", the agent
 * streams its lines; the server keeps them a few days (`botLogRetentionDays`).
 */
export const BOT_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type BotLogLevel = (typeof BOT_LOG_LEVELS)[number];

export const BOT_LOG_LEVEL_LABELS: Record<BotLogLevel, string> = {
  debug: 'Débogage',
  info: 'Info',
  warn: 'Avertissement',
  error: 'Erreur',
};

/** What replaces a secret in a line, on the PC (the SDK) and again on the server (decision 209). */
export const BOT_LOG_REDACTED = '[masqué]';

/** Longest message kept: a longer one is cut and ends with "…". */
export const BOT_LOG_MESSAGE_MAX_CHARS = 1_000;
/** Lines an agent keeps for a new viewer (its ring buffer), and what a viewer first reads. */
export const BOT_LOG_RECENT_LINES = 500;
/** Lines per `bot_log` message (a socket message stays under the hub's 16 KB limit). */
export const BOT_LOG_BATCH_MAX_LINES = 50;

/** One line as the agent sends it. */
export const botLogLineInput = z.strictObject({
  /**
   * The agent's id of the line, unique on its PC across its runs (a run id and a counter): a line
   * sent again (a backlog resent after a reconnection) is kept once. Without it, every copy is kept.
   */
  id: z.string().min(1).max(64).optional(),
  level: z.enum(BOT_LOG_LEVELS),
  time: z.string().datetime({ offset: true }),
  /** Longer than `BOT_LOG_MESSAGE_MAX_CHARS` is accepted and cut. */
  message: z.string().max(16_000),
});
export type BotLogLineInput = z.infer<typeof botLogLineInput>;

/**
 * `bot_log` from the agent: new lines while watched; `backlog` for its recent lines, sent once when
 * a watch starts (not rate-limited); `dropped` lines it could not send (its own queue was full).
 */
export const botLogBatchSchema = z.strictObject({
  lines: z.array(botLogLineInput).max(BOT_LOG_BATCH_MAX_LINES),
  backlog: z.boolean().optional(),
  dropped: z.number().int().min(0).optional(),
});
export type BotLogBatch = z.infer<typeof botLogBatchSchema>;

/**
 * A line as viewers read it. `origin: 'server'` is the hub speaking (lines it dropped past the rate
 * limit); `id` orders lines as they were received.
 */
export const botLogLineSchema = z.object({
  id: z.string(),
  level: z.enum(BOT_LOG_LEVELS),
  time: z.string(),
  message: z.string(),
  origin: z.enum(['agent', 'server']),
});
export type BotLogLine = z.infer<typeof botLogLineSchema>;

/** `bot_log` to the viewers of a bot's journal. */
export interface BotLogLines {
  hwid: string;
  lines: BotLogLine[];
}

/** `GET /me/bot/log`, `GET /admin/bots/:hwid/log`: the last lines kept, oldest first. */
export const botLogAnswer = z.object({
  data: z.array(botLogLineSchema),
  /** Whether the agent is online now (its lines stream while the journal is open). */
  online: z.boolean(),
});
export type BotLogAnswer = z.infer<typeof botLogAnswer>;
