import type { MyBot, UserPc } from '@bot/contracts';
import { desc, eq, max, min } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { getUserById } from '../users/index.ts';
import { timelineHwidOf } from './bot-events.ts';
import { listBotHistory, mergeHistory } from './bots.history.ts';
import { botEvents } from './bots.table.ts';

const HISTORY_WINDOW_MS = 24 * 3_600_000;

/**
 * A user's bot as its owner sees it (and staff on the user page): the bound PC, its live state when
 * online, and the last 24 h of activity. With no PC bound (staff reset it), the activity is that of
 * the PC they last had: their own time with it stays theirs.
 */
export async function botOverviewOf(ctx: AppContext, userId: string): Promise<MyBot> {
  const user = await getUserById(ctx, userId);
  const historyHwid = user.hwid ?? (await timelineHwidOf(ctx, userId));
  if (!historyHwid) return { hwid: null, state: null, history: [] };
  const [state, written] = await Promise.all([
    user.hwid ? ctx.live.botState(user.hwid).catch(() => undefined) : undefined,
    listBotHistory(ctx, { userId, hwid: historyHwid, since: new Date(Date.now() - HISTORY_WINDOW_MS) }),
  ]);
  return {
    hwid: user.hwid,
    state: state?.owner.id === userId ? state : null,
    history: mergeHistory(written, ctx.activity.pendingFor(userId, historyHwid)),
  };
}

/** Every PC a user has had, the one bound now first, then the most recently seen. */
export async function listPcsOfUser(ctx: AppContext, userId: string): Promise<UserPc[]> {
  const user = await getUserById(ctx, userId);
  const rows = await ctx.db
    .select({ hwid: botEvents.hwid, firstSeenAt: min(botEvents.at), lastSeenAt: max(botEvents.at) })
    .from(botEvents)
    .where(eq(botEvents.userId, userId))
    .groupBy(botEvents.hwid)
    .orderBy(desc(max(botEvents.at)));
  const pcs: UserPc[] = rows.map((row) => ({
    hwid: row.hwid,
    isCurrent: row.hwid === user.hwid,
    firstSeenAt: toIso(row.firstSeenAt),
    lastSeenAt: toIso(row.lastSeenAt),
  }));
  if (user.hwid && !pcs.some((pc) => pc.isCurrent))
    pcs.unshift({ hwid: user.hwid, isCurrent: true, firstSeenAt: null, lastSeenAt: null });
  return pcs.sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent));
}

const toIso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();
