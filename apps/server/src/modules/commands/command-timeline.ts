import { BOT_COMMAND_STATE_LABELS, type BotTimelineEntry } from '@bot/contracts';
import { and, desc, eq, gte } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { botCommands } from './commands.table.ts';

/** The audit actions of commands: the timeline shows the commands themselves instead. */
export const COMMAND_AUDIT_ACTIONS = ['bot.command', 'bot.command_cancel'];

/**
 * A PC's commands for its timeline (decision 901): when sent, what, by whom, and how it ended.
 * `ownerId`: the customer reads it (their own time with the PC; "vous" or "l’équipe").
 */
export async function commandTimelineEntries(
  ctx: AppContext,
  input: { hwid: string; ownerId?: string; since: Date; limit: number },
): Promise<BotTimelineEntry[]> {
  const rows = await ctx.db
    .select()
    .from(botCommands)
    .where(
      and(
        eq(botCommands.hwid, input.hwid),
        gte(botCommands.createdAt, input.since),
        input.ownerId ? eq(botCommands.userId, input.ownerId) : undefined,
      ),
    )
    .orderBy(desc(botCommands.createdAt))
    .limit(input.limit);
  return rows.map((row) => ({
    id: row.id,
    at: row.createdAt.toISOString(),
    kind: 'command',
    version: null,
    durationSeconds: null,
    account: typeof row.payload.account === 'string' ? row.payload.account : null,
    message: row.message
      ? `${BOT_COMMAND_STATE_LABELS[row.state]} : ${row.message}`
      : BOT_COMMAND_STATE_LABELS[row.state],
    action: row.kind,
    actor: !input.ownerId ? row.issuerUsername : row.issuedByStaff ? 'l’équipe' : 'vous',
    order: null,
  }));
}
