import type { BotHistoryPoint, HourlyPoint } from '@bot/contracts';
import { and, asc, countDistinct, eq, gte, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { deleteInBatches, retentionStart } from '../../core/batched-delete.ts';
import type { AccountsChange, BotActivity } from '../../core/bot-activity.ts';
import { hourOf, toHourlyPoints, windowStart } from '../../core/time-series.ts';
import { getSettings } from '../settings/index.ts';
import { forEachReportedAccount } from './bot-accounts.ts';
import { botActivityMinutes } from './bots.table.ts';

const MINUTE_MS = 60_000;
/** Rows per statement: the embedded database blocks the event loop while a statement runs. */
const INSERT_CHUNK = 200;
/** Past this many buffered rows a failing database stops growing the buffer (oldest kept). */
const MAX_BUFFERED_ROWS = 200_000;

export interface ActivityDelta {
  gathered: number;
  treasures: number;
  kamas: number;
  xp: number;
}

interface BufferedRow extends ActivityDelta {
  userId: string;
  hwid: string;
  account: string;
  minute: number;
  reports: number;
}

/**
 * Per-minute activity aggregates, summed in memory and upserted in batches (one statement per
 * few hundred rows every flush), never one write per bot update.
 */
export class ActivityRecorder implements BotActivity {
  /**
   * Buffered rows per PC (a few: its accounts times the minutes not yet written). Found by a short
   * scan rather than by a composite string key: two look-ups per report at thousands of reports a
   * second, and building and hashing such keys cost more than the rest of the recording.
   */
  private buffer = new Map<string, BufferedRow[]>();
  private bufferedRows = 0;
  private flushing: Promise<void> | undefined;

  constructor(private readonly ctx: AppContext) {}

  /**
   * Adds stat deltas to the account's minute: one report's, or (`reports`) the rows of a refused
   * write put back, which stand for that many reports.
   */
  record(input: {
    userId: string;
    hwid: string;
    account: string;
    at: number;
    delta: ActivityDelta;
    reports?: number;
  }): void {
    const reports = input.reports ?? 1;
    const minute = Math.floor(input.at / MINUTE_MS) * MINUTE_MS;
    let rows = this.buffer.get(input.hwid);
    const row = rows?.find(
      (candidate) =>
        candidate.minute === minute &&
        candidate.account === input.account &&
        candidate.userId === input.userId,
    );
    if (row) {
      row.gathered += input.delta.gathered;
      row.treasures += input.delta.treasures;
      row.kamas += input.delta.kamas;
      row.xp += input.delta.xp;
      row.reports += reports;
      return;
    }
    if (this.bufferedRows >= MAX_BUFFERED_ROWS) return;
    if (!rows) {
      rows = [];
      this.buffer.set(input.hwid, rows);
    }
    rows.push({
      userId: input.userId,
      hwid: input.hwid,
      account: input.account,
      minute,
      reports,
      gathered: input.delta.gathered,
      treasures: input.delta.treasures,
      kamas: input.delta.kamas,
      xp: input.delta.xp,
    });
    this.bufferedRows += 1;
  }

  /**
   * Stat deltas between two reports of a bot, per account (an account's first report is the
   * baseline), in the minute the context's clock shows: the one `takeRows` reads to tell a
   * finished minute, so a test standing at a minute's edge moves both.
   */
  recordReport(input: AccountsChange): void {
    const at = this.ctx.clock.now();
    forEachReportedAccount(input, (account, previousAccount) => {
      const previous = previousAccount?.stats;
      if (!previous) return;
      const next = account.stats;
      this.record({
        userId: input.userId,
        hwid: input.hwid,
        account: account.name,
        at,
        delta: {
          gathered: counterDelta(next.gathered, previous.gathered),
          treasures: counterDelta(next.treasures, previous.treasures),
          kamas: counterDelta(next.kamas, previous.kamas),
          xp: counterDelta(next.xp, previous.xp),
        },
      });
    });
  }

  /** Rows not yet written, for one bot (so the owner's page does not wait for the next flush). */
  pendingFor(userId: string, hwid: string): BotHistoryPoint[] {
    const rows = this.buffer.get(hwid) ?? [];
    return rows.filter((row) => row.userId === userId).map(toPoint);
  }

  /** Writes every buffered row (shutdown); concurrent calls share one write. */
  flush(): Promise<void> {
    return this.write(true);
  }

  /** The periodic write (app.ts): finished minutes only, so each row is written once, not each time. */
  readonly writeFinished = (): Promise<void> => this.write(false);

  private async write(all: boolean): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.writeBuffered(all).finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writeBuffered(all: boolean): Promise<void> {
    const rows = this.takeRows(all);
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      // The embedded database runs on this thread: let sockets through between statements.
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      try {
        await upsertActivity(this.ctx, chunk);
      } catch (error) {
        this.ctx.log.warn(
          { err: error, rows: chunk.length },
          'écriture de l’historique des bots en échec : gardé pour un nouvel essai',
        );
        for (const row of chunk) this.record({ ...row, at: row.minute, delta: row, reports: row.reports });
      }
    }
  }

  /** Removes and returns the rows to write: finished minutes, or everything. */
  private takeRows(all: boolean): BufferedRow[] {
    const currentMinute = Math.floor(this.ctx.clock.now() / MINUTE_MS) * MINUTE_MS;
    const taken: BufferedRow[] = [];
    for (const [hwid, rows] of this.buffer) {
      const kept: BufferedRow[] = [];
      for (const row of rows) (all || row.minute < currentMinute ? taken : kept).push(row);
      if (kept.length > 0) this.buffer.set(hwid, kept);
      else this.buffer.delete(hwid);
    }
    this.bufferedRows -= taken.length;
    return taken;
  }
}

async function upsertActivity(ctx: AppContext, rows: BufferedRow[]): Promise<void> {
  const t = botActivityMinutes;
  await ctx.db
    .insert(t)
    .values(rows.map((row) => ({ ...row, minute: new Date(row.minute) })))
    .onConflictDoUpdate({
      target: [t.userId, t.hwid, t.minute, t.account],
      set: {
        gathered: sql`${t.gathered} + excluded.gathered`,
        treasures: sql`${t.treasures} + excluded.treasures`,
        kamas: sql`${t.kamas} + excluded.kamas`,
        xp: sql`${t.xp} + excluded.xp`,
        reports: sql`${t.reports} + excluded.reports`,
      },
    });
}

function toPoint(row: BufferedRow): BotHistoryPoint {
  return {
    minute: new Date(row.minute).toISOString(),
    account: row.account,
    gathered: row.gathered,
    treasures: row.treasures,
    kamas: row.kamas,
    xp: row.xp,
  };
}

/**
 * Deletes the minutes older than `botHistoryRetentionDays` (the retention loop, docs/capacity.md):
 * the owner's page reads a day of them, the dashboard's chart up to 90 days.
 */
export async function pruneBotHistory(ctx: AppContext, now = new Date()): Promise<number> {
  const { botHistoryRetentionDays } = await getSettings(ctx);
  const before = retentionStart(now, botHistoryRetentionDays);
  return deleteInBatches(ctx.db, botActivityMinutes, lt(botActivityMinutes.minute, before));
}

/** The written per-minute history of one bot since a date, oldest first. */
export async function listBotHistory(
  ctx: AppContext,
  input: { userId: string; hwid: string; since: Date },
): Promise<BotHistoryPoint[]> {
  const t = botActivityMinutes;
  const rows = await ctx.db
    .select()
    .from(t)
    .where(and(eq(t.userId, input.userId), eq(t.hwid, input.hwid), gte(t.minute, input.since)))
    .orderBy(asc(t.minute), asc(t.account));
  return rows.map((row) => ({
    minute: row.minute.toISOString(),
    account: row.account,
    gathered: row.gathered,
    treasures: row.treasures,
    kamas: row.kamas,
    xp: row.xp,
  }));
}

/** Written history plus still-buffered rows, summed per minute and account. */
export function mergeHistory(written: BotHistoryPoint[], pending: BotHistoryPoint[]): BotHistoryPoint[] {
  const merged = new Map<string, BotHistoryPoint>();
  for (const point of [...written, ...pending]) {
    const key = `${point.minute}\u0000${point.account}`;
    const existing = merged.get(key);
    if (!existing) merged.set(key, { ...point });
    else {
      existing.gathered += point.gathered;
      existing.treasures += point.treasures;
      existing.kamas += point.kamas;
      existing.xp += point.xp;
    }
  }
  return [...merged.values()].sort((a, b) =>
    a.minute === b.minute ? a.account.localeCompare(b.account) : a.minute.localeCompare(b.minute),
  );
}

/** Bots (distinct PCs) that reported in each hour of the last `days` days: the dashboard's chart. */
export async function onlineBotsPerHour(ctx: AppContext, days: number): Promise<HourlyPoint[]> {
  const hour = hourOf(botActivityMinutes.minute);
  const rows = await ctx.db
    .select({ hour, value: countDistinct(botActivityMinutes.hwid) })
    .from(botActivityMinutes)
    .where(gte(botActivityMinutes.minute, windowStart(days, ctx.clock.now())))
    .groupBy(hour)
    .orderBy(hour);
  return toHourlyPoints(rows);
}

/** A counter that went down was reset by the bot: what it shows now is what it did since. */
function counterDelta(next: number, previous: number): number {
  return next >= previous ? next - previous : next;
}
