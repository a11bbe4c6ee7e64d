import type { BotState } from '@bot/contracts';
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { deleteInBatches, retentionStart } from '../../core/batched-delete.ts';
import type { AccountsChange } from '../../core/bot-activity.ts';
import { newId } from '../../core/ids.ts';
import { isDatabaseUnavailable, isDiskFull } from '../../db/errors.ts';
import { getSettings } from '../settings/index.ts';
import { users } from '../users/index.ts';
import { forEachReportedAccount } from './bot-accounts.ts';
import { botEvents } from './bots.table.ts';

type BotEvent = Omit<typeof botEvents.$inferInsert, 'id'>;

/** Writes one timeline event; pass the transaction of the change it records. */
export async function writeBotEvent(ctx: AppContext, event: BotEvent): Promise<void> {
  await ctx.db.insert(botEvents).values({ id: newId(), ...event });
}

/** Whether the PC has an event of this kind for this owner since a time (a throttle's check). */
export async function hasBotEventSince(
  ctx: AppContext,
  input: { hwid: string; userId: string; kind: BotEvent['kind']; since: Date },
): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: botEvents.id })
    .from(botEvents)
    .where(
      and(
        eq(botEvents.hwid, input.hwid),
        eq(botEvents.userId, input.userId),
        eq(botEvents.kind, input.kind),
        gte(botEvents.at, input.since),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * A PC's latest connection or disconnection (for one owner, before a time when given): whether its
 * bot was online then, and since when.
 */
export async function lastConnectionEvent(
  ctx: AppContext,
  input: { hwid: string; userId?: string; before?: Date },
): Promise<{ kind: 'connected' | 'disconnected'; at: Date } | undefined> {
  const [last] = await ctx.db
    .select({ kind: botEvents.kind, at: botEvents.at })
    .from(botEvents)
    .where(
      and(
        eq(botEvents.hwid, input.hwid),
        input.userId ? eq(botEvents.userId, input.userId) : undefined,
        input.before ? lt(botEvents.at, input.before) : undefined,
        inArray(botEvents.kind, ['connected', 'disconnected']),
      ),
    )
    // A bot can connect and drop within the same millisecond: the later written wins the tie (ids
    // are time-ordered, given in the order the events happened), else a dropped bot looked online.
    .orderBy(desc(botEvents.at), desc(botEvents.id))
    .limit(1);
  return last as { kind: 'connected' | 'disconnected'; at: Date } | undefined;
}

/**
 * Deletes the events older than `botEventRetentionDays` (the retention loop, docs/capacity.md),
 * except each PC's latest connection or disconnection per owner: the timeline reads it to know
 * whether a bot that connected long ago is still online (`lastConnectionEvent`).
 */
export async function pruneBotEvents(ctx: AppContext, now = new Date()): Promise<number> {
  const { botEventRetentionDays } = await getSettings(ctx);
  const presence = sql`('connected', 'disconnected')`;
  return deleteInBatches(
    ctx.db,
    botEvents,
    sql`${lt(botEvents.at, retentionStart(now, botEventRetentionDays))} and not (
      ${botEvents.kind} in ${presence} and ${botEvents.id} = (
        select newest.id from ${botEvents} newest
        where newest.hwid = ${botEvents.hwid} and newest.user_id = ${botEvents.userId}
          and newest.kind in ${presence}
        order by newest.at desc, newest.id desc limit 1))`,
  );
}

/** Rows per insert statement when many events are written together. */
const EVENTS_PER_STATEMENT = 500;
/** How long events wait for others to share their insert. */
const EVENTS_BATCH_MS = 250;

/**
 * The real-time layer's part of a bot's timeline: connections, disconnections, game accounts going
 * into and out of `error`. Presence lives in memory or Redis, not in a transaction: the events of a
 * quarter of a second are written together (a reconnect storm connects thousands of bots over a few
 * seconds: the events of one turn of the event loop made 730 inserts of 13 rows for 10,000 bots),
 * and a failed write (database away) is logged, never thrown at presence.
 */
export class BotEventRecorder {
  private readonly pending = new Set<Promise<void>>();
  private queued: BotEvent[] = [];

  constructor(private readonly ctx: AppContext) {}

  connected(state: BotState, replaced: boolean): void {
    this.write({
      hwid: state.hwid,
      userId: state.owner.id,
      kind: 'connected',
      at: new Date(state.connectedAt),
      detail: { version: state.version, replaced: replaced ? 'true' : null },
    });
  }

  disconnected(state: BotState, at = new Date()): void {
    this.write({
      hwid: state.hwid,
      userId: state.owner.id,
      kind: 'disconnected',
      at,
      detail: { connectedAt: state.connectedAt },
    });
  }

  /** Compares a report with the state before it: one event per account entering or leaving `error`. */
  statusChanges(input: AccountsChange): void {
    forEachReportedAccount(input, (account, previous) => {
      const isInError = account.status === 'error';
      if ((previous?.status === 'error') === isInError) return;
      this.write({
        hwid: input.hwid,
        userId: input.userId,
        kind: isInError ? 'error' : 'recovered',
        at: new Date(input.at),
        detail: { account: account.name, message: isInError ? account.message : null },
      });
    });
  }

  /** Resolves once every write started so far is done (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private write(event: BotEvent): void {
    this.queued.push(event);
    if (this.queued.length > 1) return; // a flush is already scheduled
    const written = new Promise<void>((resolve) => setTimeout(resolve, EVENTS_BATCH_MS))
      .then(() => this.flush())
      .finally(() => this.pending.delete(written));
    this.pending.add(written);
  }

  private async flush(): Promise<void> {
    const events = this.queued;
    this.queued = [];
    for (let start = 0; start < events.length; start += EVENTS_PER_STATEMENT)
      await this.insert(events.slice(start, start + EVENTS_PER_STATEMENT));
  }

  /**
   * The events of many bots in one statement. A row the database refuses (a value it cannot store)
   * would lose every other bot's: the rows are then written one by one, and each refused one is
   * logged. A database away or full refuses them all alike: logged once, not retried.
   */
  private async insert(events: BotEvent[]): Promise<void> {
    try {
      await this.ctx.db.insert(botEvents).values(events.map((event) => ({ id: newId(), ...event })));
    } catch (error) {
      if (events.length > 1 && !isDatabaseUnavailable(error) && !isDiskFull(error)) {
        for (const event of events) await this.insert([event]);
        return;
      }
      const [first] = events;
      this.ctx.log.warn(
        { err: error, events: events.length, hwid: first?.hwid, kind: first?.kind },
        'événements des bots non enregistrés',
      );
    }
  }
}

/** The PC a user's timeline is about: the bound one, else the last one they bound. */
export async function timelineHwidOf(ctx: AppContext, userId: string): Promise<string | null> {
  const [user] = await ctx.db.select({ hwid: users.hwid }).from(users).where(eq(users.id, userId));
  if (user?.hwid) return user.hwid;
  const [last] = await ctx.db
    .select({ hwid: botEvents.hwid })
    .from(botEvents)
    .where(eq(botEvents.userId, userId))
    .orderBy(desc(botEvents.at))
    .limit(1);
  return last?.hwid ?? null;
}
