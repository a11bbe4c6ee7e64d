import type { AlertRule, NotificationKind } from '@bot/contracts';
import { and, eq, gte, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { botEvents, lastConnectionEvent } from '../bots/index.ts';

/** One condition that holds now for one subject of a user's bot. */
export interface HoldingCondition {
  rule: AlertRule;
  /** The hwid (bot_offline) or the game account's name (account_error). */
  subject: string;
  since: Date;
  /** account_error: the bot's message. */
  message: string | null;
  /** The account's own rules (package, payments) word their message when they find the condition. */
  text?: { kind: NotificationKind; title: string; body: string };
}

export interface WatchedBot {
  userId: string;
  hwid: string;
  botOffline: boolean;
  offlineMinutes: number;
  accountError: boolean;
}

/**
 * What holds for one bot, read from its timeline (`bot_events`, written by presence): offline since
 * its last disconnection for more than N minutes; a game account whose last report since the bot's
 * current connection put it in `error`. While the bot is offline, its accounts' states are unknown:
 * their incidents are left as they are (`accountsKnown: false`), not closed.
 */
export async function holdingConditions(
  ctx: AppContext,
  bot: WatchedBot,
  now: Date,
): Promise<{ holding: HoldingCondition[]; accountsKnown: boolean }> {
  const last = await lastConnectionEvent(ctx, { hwid: bot.hwid, userId: bot.userId });
  if (!last) return { holding: [], accountsKnown: false };
  if (last.kind === 'disconnected') {
    const offlineForMs = now.getTime() - last.at.getTime();
    const isLong = bot.botOffline && offlineForMs >= bot.offlineMinutes * 60_000;
    return {
      holding: isLong ? [{ rule: 'bot_offline', subject: bot.hwid, since: last.at, message: null }] : [],
      accountsKnown: false,
    };
  }
  if (!bot.accountError) return { holding: [], accountsKnown: true };
  return { holding: await accountsInError(ctx, bot, last.at), accountsKnown: true };
}

async function accountsInError(
  ctx: AppContext,
  bot: WatchedBot,
  connectedAt: Date,
): Promise<HoldingCondition[]> {
  const changes = await ctx.db
    .select({ kind: botEvents.kind, at: botEvents.at, detail: botEvents.detail })
    .from(botEvents)
    .where(
      and(
        eq(botEvents.hwid, bot.hwid),
        eq(botEvents.userId, bot.userId),
        inArray(botEvents.kind, ['error', 'recovered']),
        gte(botEvents.at, connectedAt),
      ),
    )
    .orderBy(botEvents.at);
  const lastByAccount = new Map<string, (typeof changes)[number]>();
  for (const change of changes) {
    const account = change.detail.account;
    if (account) lastByAccount.set(account, change);
  }
  return [...lastByAccount.entries()]
    .filter(([, change]) => change.kind === 'error')
    .map(([account, change]) => ({
      rule: 'account_error' as const,
      subject: account,
      since: change.at,
      message: change.detail.message ?? null,
    }));
}
