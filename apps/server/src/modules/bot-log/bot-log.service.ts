import {
  BOT_LOG_MESSAGE_MAX_CHARS,
  BOT_LOG_RECENT_LINES,
  type BotLogLevel,
  type BotLogLine,
  type Permission,
} from '@bot/contracts';
import { and, desc, eq, lt } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { BOT_STAFF_PERMISSIONS, ownerForStaff } from '../commands/index.ts';
import { getSettings } from '../settings/index.ts';
import { findUserById, getOrCreateBotKey, users } from '../users/index.ts';
import { type BotLogLineRow, botLogLines } from './bot-log.table.ts';
import { redactBatch } from './redaction.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A line to keep, as the hub accepted it. */
export interface NewBotLogLine {
  level: BotLogLevel;
  time: Date;
  message: string;
  origin: BotLogLine['origin'];
  /** The agent's id of the line: a second line of the same id is not kept (decision 923). */
  agentLineId?: string;
}

function toBotLogLine(row: BotLogLineRow): BotLogLine {
  return {
    id: String(row.id),
    level: row.level,
    time: row.time.toISOString(),
    message: row.message,
    origin: row.origin,
  };
}

/** A message cut to what is kept, ending with "…" when it was longer. */
function capMessage(message: string): string {
  if (message.length <= BOT_LOG_MESSAGE_MAX_CHARS) return message;
  return `${message.slice(0, BOT_LOG_MESSAGE_MAX_CHARS - 1)}…`;
}

/**
 * Whether the user still holds the PC, the user's row share-locked until the transaction ends: an
 * unbind (which updates that row) waits for the lines written now and deletes them, or these lines
 * wait for the unbind and are not written.
 */
async function holdsPc(tx: AppContext, input: { userId: string; hwid: string }): Promise<boolean> {
  const [row] = await tx.db
    .select({ hwid: users.hwid })
    .from(users)
    .where(eq(users.id, input.userId))
    .for('share');
  return row?.hwid === input.hwid;
}

/**
 * Keeps lines of a bot's log for the PC's owner (decision 209), without their secrets: the batch is
 * redacted as a whole (secret shapes, the owner's access key in its encodings, a secret continued on
 * the next line) before a long line is cut. Nothing is kept once the owner no longer holds the PC,
 * nor a line whose agent id is already kept. Answers the lines kept, as viewers read them, in the
 * order received.
 */
export async function recordBotLogLines(
  ctx: AppContext,
  input: { userId: string; hwid: string; lines: readonly NewBotLogLine[]; now?: Date },
): Promise<BotLogLine[]> {
  if (input.lines.length === 0) return [];
  const receivedAt = input.now ?? new Date();
  return inTransaction(ctx, async (tx) => {
    if (!(await holdsPc(tx, input))) return [];
    // Read once per batch (the key is sealed at rest); a rotation ends the agent's socket anyway.
    const accessKey = await getOrCreateBotKey(tx, input.userId);
    const messages = redactBatch(
      input.lines.map((line) => line.message),
      [accessKey],
    );
    const rows = await tx.db
      .insert(botLogLines)
      .values(
        input.lines.map((line, index) => ({
          ...line,
          message: capMessage(messages[index] ?? ''),
          userId: input.userId,
          hwid: input.hwid,
          receivedAt,
        })),
      )
      // A line the agent sent again (its backlog after a reconnection) is already kept.
      .onConflictDoNothing()
      .returning();
    return rows.sort((a, b) => a.id - b.id).map(toBotLogLine);
  });
}

/** The last lines kept of the owner's log on that PC, oldest first. */
export async function listBotLogLines(
  ctx: AppContext,
  input: { userId: string; hwid: string; limit?: number },
): Promise<BotLogLine[]> {
  const rows = await ctx.db
    .select()
    .from(botLogLines)
    .where(and(eq(botLogLines.userId, input.userId), eq(botLogLines.hwid, input.hwid)))
    .orderBy(desc(botLogLines.id))
    .limit(input.limit ?? BOT_LOG_RECENT_LINES);
  return rows.reverse().map(toBotLogLine);
}

/**
 * Forgets the owner's lines of a PC they unbind, inside the unbind's transaction (docs/security.md:
 * the PC's next owner reads none of them).
 */
export async function forgetBotLogOfPc(
  tx: AppContext,
  input: { userId: string; hwid: string },
): Promise<number> {
  const removed = await tx.db
    .delete(botLogLines)
    .where(and(eq(botLogLines.userId, input.userId), eq(botLogLines.hwid, input.hwid)))
    .returning({ id: botLogLines.id });
  return removed.length;
}

/** Forgets lines older than the `botLogRetentionDays` setting; answers how many. */
export async function purgeBotLog(ctx: AppContext, now = new Date()): Promise<number> {
  const { botLogRetentionDays } = await getSettings(ctx);
  const before = new Date(now.getTime() - botLogRetentionDays * DAY_MS);
  const removed = await ctx.db
    .delete(botLogLines)
    .where(lt(botLogLines.receivedAt, before))
    .returning({ id: botLogLines.id });
  return removed.length;
}

/**
 * Whether a user may read a PC's journal: its owner (the PC bound to them now), or staff who act
 * on bots and may manage that owner.
 */
export async function mayReadBotLog(
  ctx: AppContext,
  input: { userId: string; hwid: string; permissions: readonly Permission[] },
): Promise<boolean> {
  const user = await findUserById(ctx, input.userId);
  if (!user || user.bannedAt) return false;
  if (user.hwid === input.hwid) return true;
  if (!BOT_STAFF_PERMISSIONS.some((name) => input.permissions.includes(name))) return false;
  try {
    await ownerForStaff(ctx, input.hwid, { id: input.userId });
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}
