import {
  BOT_COMMAND_FINAL_STATES,
  BOT_COMMAND_MESSAGE_MAX_CHARS,
  type BotCommand,
  type BotCommandResult,
} from '@bot/contracts';
import { and, asc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { deleteInBatches, retentionStart } from '../../core/batched-delete.ts';
import { getSettings } from '../settings/index.ts';
import { users } from '../users/index.ts';
import { announce, toBotCommand } from './commands.service.ts';
import { botCommands } from './commands.table.ts';

/**
 * The agent's side of a command's life (decision 208), called by the real-time module on the node
 * holding the bot's socket: handed over (`sent`), acknowledged, finished; and the expiry sweep.
 * Each transition is conditional on the state before it, so a late or repeated message changes
 * nothing.
 */

/**
 * The command's user still has its PC bound: only then is it handed over. A PC changes hands with an
 * unbind, which ends its owner's waiting commands; this holds for one left from before that rule
 * (docs/decisions/208-remote-commands.md, "A command belongs to its owner's time with the PC").
 */
const isForCurrentOwner = () =>
  sql`exists (select 1 from ${users} where ${users.id} = ${botCommands.userId} and ${users.hwid} = ${botCommands.hwid})`;

/**
 * Marks a command handed to the agent's socket (`queued` → `sent`, or `sent` again on a
 * reconnection); answers it when this call won, undefined when someone else did (or it ended).
 * `deliveries` is the count the caller read: two nodes or paths never both send the same hand-over.
 */
export async function markCommandSent(
  ctx: AppContext,
  input: { id: string; deliveries: number; now?: Date },
): Promise<BotCommand | undefined> {
  return inTransaction(ctx, async (tx) => {
    const now = input.now ?? new Date();
    const [row] = await tx.db
      .update(botCommands)
      .set({ state: 'sent', deliveries: sql`${botCommands.deliveries} + 1`, sentAt: now, updatedAt: now })
      .where(
        and(
          eq(botCommands.id, input.id),
          eq(botCommands.deliveries, input.deliveries),
          inArray(botCommands.state, ['queued', 'sent']),
          gt(botCommands.expiresAt, now),
          isForCurrentOwner(),
        ),
      )
      .returning();
    if (!row) return undefined;
    // Only the first hand-over is news: a re-send leaves the state shown as it was.
    if (input.deliveries === 0) announce(tx, row);
    return toBotCommand(row);
  });
}

/** A command waiting for a connecting bot, and how many times it was handed over already. */
export interface CommandToDeliver {
  command: BotCommand;
  deliveries: number;
}

/**
 * What bots connecting now must each be handed, in one query for all of them (a reconnect storm
 * connects thousands at once): queued commands, and sent ones not acknowledged yet. The hub skips
 * those it already emitted on the connection (decision 013): a time of sending taken on another
 * node's clock could not tell them apart.
 */
export async function commandsToDeliver(
  ctx: AppContext,
  hwids: readonly string[],
  now = new Date(),
): Promise<CommandToDeliver[][]> {
  const rows = await ctx.db
    .select()
    .from(botCommands)
    .where(
      and(
        inArray(botCommands.hwid, [...new Set(hwids)]),
        inArray(botCommands.state, ['queued', 'sent']),
        gt(botCommands.expiresAt, now),
        isForCurrentOwner(),
      ),
    )
    .orderBy(asc(botCommands.createdAt));
  return hwids.map((hwid) =>
    rows
      .filter((row) => row.hwid === hwid)
      .map((row) => ({ command: toBotCommand(row), deliveries: row.deliveries })),
  );
}

/** The agent has the command (`sent` → `acknowledged`): the only way past `sent`. */
export async function acknowledgeCommand(
  ctx: AppContext,
  input: { id: string; hwid: string; now?: Date },
): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(botCommands)
      .set({ state: 'acknowledged', updatedAt: input.now ?? new Date() })
      .where(
        and(eq(botCommands.id, input.id), eq(botCommands.hwid, input.hwid), eq(botCommands.state, 'sent')),
      )
      .returning();
    if (row) announce(tx, row);
    return row !== undefined;
  });
}

/** The agent's message as kept: a long one is cut (never refused: docs/protocol.md, "Commands"). */
const keptMessage = (message: string): string =>
  message.length > BOT_COMMAND_MESSAGE_MAX_CHARS
    ? `${message.slice(0, BOT_COMMAND_MESSAGE_MAX_CHARS - 1)}…`
    : message;

/**
 * The agent's outcome of a command it acknowledged: `succeeded` or `failed`, with its message (a
 * failure without one says so).
 */
export async function finishCommand(
  ctx: AppContext,
  input: BotCommandResult & { hwid: string; now?: Date },
): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(botCommands)
      .set({
        state: input.ok ? 'succeeded' : 'failed',
        message: input.message ? keptMessage(input.message) : input.ok ? null : 'échec sans message',
        updatedAt: input.now ?? new Date(),
      })
      .where(
        and(
          eq(botCommands.id, input.id),
          eq(botCommands.hwid, input.hwid),
          eq(botCommands.state, 'acknowledged'),
        ),
      )
      .returning();
    if (row) announce(tx, row);
    return row !== undefined;
  });
}

/** Said of a command the agent received but never finished (its process died, for instance). */
const NO_RESULT = 'Reçue par le bot, sans résultat dans le délai.';
/** Why a command expired when the bot never connected, or never confirmed it received it. */
const NOT_CONNECTED = 'Le bot ne s’est pas connecté avant l’échéance.';
const NOT_ACKNOWLEDGED = 'Envoyée, mais le bot n’a pas confirmé sa réception à temps.';

/**
 * Commands not finished within their TTL: `expired` (the sweep started in app.ts). One the agent
 * acknowledged but never answered is expired too, saying so: otherwise it would wait forever.
 */
export async function expireBotCommands(ctx: AppContext, now = new Date()): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const unanswered = await tx.db
      .update(botCommands)
      .set({ state: 'expired', message: NO_RESULT, updatedAt: now })
      .where(and(eq(botCommands.state, 'acknowledged'), lte(botCommands.expiresAt, now)))
      .returning();
    const neverSent = await tx.db
      .update(botCommands)
      .set({ state: 'expired', message: NOT_CONNECTED, updatedAt: now })
      .where(and(eq(botCommands.state, 'queued'), lte(botCommands.expiresAt, now)))
      .returning();
    const unacknowledged = await tx.db
      .update(botCommands)
      .set({ state: 'expired', message: NOT_ACKNOWLEDGED, updatedAt: now })
      .where(and(eq(botCommands.state, 'sent'), lte(botCommands.expiresAt, now)))
      .returning();
    const rows = [...unanswered, ...neverSent, ...unacknowledged];
    for (const row of rows) announce(tx, row);
    return rows.length;
  });
}

/**
 * Deletes the commands finished more than `botCommandRetentionDays` ago (the retention loop,
 * docs/capacity.md). One still queued, sent or acknowledged stays: the agent may yet be handed it or
 * answer it, and the expiry sweep ends it first.
 */
export async function pruneBotCommands(ctx: AppContext, now = new Date()): Promise<number> {
  const { botCommandRetentionDays } = await getSettings(ctx);
  const before = retentionStart(now, botCommandRetentionDays);
  return deleteInBatches(
    ctx.db,
    botCommands,
    and(inArray(botCommands.state, [...BOT_COMMAND_FINAL_STATES]), lt(botCommands.updatedAt, before)) ??
      sql`false`,
  );
}
