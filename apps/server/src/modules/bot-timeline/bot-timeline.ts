import { BOT_TIMELINE_DAYS, type BotTimeline, type BotTimelineEntry, type HourlyPoint } from '@bot/contracts';
import { and, asc, desc, eq, gte, inArray, isNotNull, notInArray, or } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { windowStart } from '../../core/time-series.ts';
import { assertMayReadUser } from '../access/index.ts';
import { alertIncidents } from '../alerts/index.ts';
import { auditLog } from '../audit/index.ts';
import { botEvents, lastConnectionEvent } from '../bots/index.ts';
import { COMMAND_AUDIT_ACTIONS, commandTimelineEntries } from '../commands/index.ts';
import { orders } from '../orders/index.ts';
import { users } from '../users/index.ts';

const MAX_ENTRIES = 300;
const HOUR_MS = 3_600_000;
/** What the audit trail says about a bot through its owner's account. */
const OWNER_ACTIONS = [
  'user.hwid_reset',
  'user.bot_key_rotated',
  'user.ban',
  'user.unban',
  'grant.create',
  'grant.update',
  'grant.delete',
];

const EMPTY = {
  version: null,
  durationSeconds: null,
  account: null,
  message: null,
  action: null,
  actor: null,
  order: null,
} satisfies Omit<BotTimelineEntry, 'id' | 'at' | 'kind'>;

type EventRow = typeof botEvents.$inferSelect;

/** The owner a PC's timeline follows: who has it bound, else who last had it. */
async function ownerOf(ctx: AppContext, hwid: string): Promise<{ id: string; username: string } | null> {
  const [bound] = await ctx.db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.hwid, hwid));
  if (bound) return bound;
  const [last] = await ctx.db
    .select({ id: users.id, username: users.username })
    .from(botEvents)
    .innerJoin(users, eq(users.id, botEvents.userId))
    .where(eq(botEvents.hwid, hwid))
    .orderBy(desc(botEvents.at))
    .limit(1);
  return last ?? null;
}

/**
 * The timeline as staff read it: refused (FORBIDDEN) when the PC's owner, who has it bound or last
 * had it, outranks the reader (docs/decisions/404, reads).
 */
export async function staffBotTimeline(
  ctx: AppContext,
  input: { hwid: string; readerId: string },
): Promise<BotTimeline> {
  const owner = await ownerOf(ctx, input.hwid);
  if (owner) await assertMayReadUser(ctx, { actorId: input.readerId, userId: owner.id });
  return botTimeline(ctx, { hwid: input.hwid });
}

/**
 * One chronological view of a PC's bot over the last 30 days, with its uptime per hour. A customer
 * (`owner` given) sees only their own time with the PC: a PC passed on keeps its past to staff.
 */
export async function botTimeline(
  ctx: AppContext,
  input: { hwid: string; owner?: { id: string; username: string }; now?: number },
): Promise<BotTimeline> {
  const { hwid, now = Date.now() } = input;
  const since = windowStart(BOT_TIMELINE_DAYS, now);
  const owner = input.owner ?? (await ownerOf(ctx, hwid));
  const events = await ctx.db
    .select()
    .from(botEvents)
    .where(
      and(
        eq(botEvents.hwid, hwid),
        gte(botEvents.at, since),
        input.owner ? eq(botEvents.userId, input.owner.id) : undefined,
      ),
    )
    .orderBy(asc(botEvents.at));
  const [ownerEntries, alerts, commands, uptime] = await Promise.all([
    owner ? ownerTimeline(ctx, { hwid, owner, asOwner: input.owner !== undefined, since, now }) : [],
    alertsSent(ctx, { hwid, ownerId: input.owner?.id, since }),
    commandTimelineEntries(ctx, { hwid, ownerId: input.owner?.id, since, limit: MAX_ENTRIES }),
    uptimeOf(ctx, { hwid, events, since, now }),
  ]);
  // Newest first; events of the same millisecond keep their recorded order, reversed.
  const entries = [...events.map(toEntry), ...ownerEntries, ...alerts, ...commands]
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => b.entry.at.localeCompare(a.entry.at) || b.index - a.index)
    .map(({ entry }) => entry)
    .slice(0, MAX_ENTRIES);
  return { hwid, owner, entries, uptime };
}

function toEntry(event: EventRow): BotTimelineEntry {
  const entry: BotTimelineEntry = { ...EMPTY, id: event.id, at: event.at.toISOString(), kind: event.kind };
  const detail = event.detail;
  if (event.kind === 'connected') entry.version = detail.version ?? null;
  if (event.kind === 'crashed') {
    entry.version = detail.version ?? null;
    entry.message = detail.message ?? null;
  }
  if (event.kind === 'disconnected' && detail.connectedAt) {
    entry.durationSeconds = Math.max(
      0,
      Math.round((event.at.getTime() - Date.parse(detail.connectedAt)) / 1000),
    );
  }
  if (event.kind === 'component_changed' || event.kind === 'pc_changed') {
    entry.message = detail.components ?? null;
  }
  if (event.kind === 'pc_refused') entry.message = refusalSentence(detail);
  if (event.kind === 'error' || event.kind === 'recovered') {
    entry.account = detail.account ?? null;
    entry.message = detail.message ?? null;
  }
  return entry;
}

/** "Prochaine déliaison possible le … (heure de Paris). Changés depuis la liaison : …" (decision 906). */
function refusalSentence(detail: Record<string, string | null>): string {
  const when = detail.nextResetAt
    ? new Date(detail.nextResetAt).toLocaleString('fr-FR', {
        timeZone: 'Europe/Paris',
        dateStyle: 'short',
        timeStyle: 'short',
      })
    : null;
  return [
    when ? `Prochaine déliaison possible le ${when} (heure de Paris).` : '',
    detail.components ? `Changés depuis la liaison : ${detail.components}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Alerts and recoveries sent about this PC (decision 902): when they went, what they were about. */
async function alertsSent(
  ctx: AppContext,
  input: { hwid: string; ownerId?: string; since: Date },
): Promise<BotTimelineEntry[]> {
  const incidents = await ctx.db
    .select()
    .from(alertIncidents)
    .where(
      and(
        eq(alertIncidents.hwid, input.hwid),
        isNotNull(alertIncidents.notifiedAt),
        gte(alertIncidents.notifiedAt, input.since),
        input.ownerId ? eq(alertIncidents.userId, input.ownerId) : undefined,
      ),
    )
    .limit(MAX_ENTRIES);
  return incidents.flatMap((incident) => {
    const about = {
      ...EMPTY,
      action: incident.rule,
      account: incident.rule === 'account_error' ? incident.subject : null,
    };
    const sent: BotTimelineEntry[] = [
      { ...about, id: `${incident.id}:alert`, at: incident.notifiedAt!.toISOString(), kind: 'alert' },
    ];
    if (incident.recoveryNotifiedAt) {
      sent.push({
        ...about,
        id: `${incident.id}:cleared`,
        at: incident.recoveryNotifiedAt.toISOString(),
        kind: 'alert_cleared',
      });
    }
    return sent;
  });
}

/** Who did an action, as its reader is told: staff read names, a customer "vous" or "l’équipe". */
const TEAM = 'l’équipe';
const YOU = 'vous';

/**
 * The owner's payments and package ends, and the audit trail's actions on the bot or its owner.
 * `asOwner`: the customer reads it, so staff members are not named.
 */
async function ownerTimeline(
  ctx: AppContext,
  input: {
    hwid: string;
    owner: { id: string; username: string };
    asOwner: boolean;
    since: Date;
    now: number;
  },
): Promise<BotTimelineEntry[]> {
  const ownerId = input.owner.id;
  const [paid, actions] = await Promise.all([
    ctx.db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.userId, ownerId),
          isNotNull(orders.paidAt),
          or(
            gte(orders.paidAt, input.since),
            gte(orders.endsAt, input.since),
            gte(orders.refundedAt, input.since),
          ),
        ),
      ),
    ctx.db
      .select({
        id: auditLog.id,
        at: auditLog.at,
        action: auditLog.action,
        actorId: auditLog.actorId,
        actor: auditLog.actorUsername,
      })
      .from(auditLog)
      .where(
        and(
          gte(auditLog.at, input.since),
          or(
            and(
              eq(auditLog.targetType, 'bot'),
              eq(auditLog.targetId, input.hwid),
              // The commands are listed from their own table, with their outcome.
              notInArray(auditLog.action, COMMAND_AUDIT_ACTIONS),
            ),
            and(
              eq(auditLog.targetType, 'user'),
              eq(auditLog.targetId, ownerId),
              inArray(auditLog.action, OWNER_ACTIONS),
            ),
          ),
        ),
      )
      .orderBy(desc(auditLog.at))
      .limit(MAX_ENTRIES),
  ]);
  const entries: BotTimelineEntry[] = actions.map((row) => ({
    ...EMPTY,
    id: row.id,
    at: row.at.toISOString(),
    kind: 'action',
    action: row.action,
    actor: !input.asOwner ? row.actor : row.actorId === ownerId ? YOU : TEAM,
  }));
  for (const order of paid) {
    const view = {
      number: order.number,
      packageName: order.packageName,
      amountCents: order.amountCents,
      currency: order.currency,
      startsAt: order.startsAt?.toISOString() ?? null,
      endsAt: order.endsAt?.toISOString() ?? null,
    };
    const within = (at: Date | null): at is Date =>
      at !== null && at >= input.since && at.getTime() <= input.now;
    if (within(order.paidAt))
      entries.push({
        ...EMPTY,
        id: `${order.id}:paid`,
        at: order.paidAt.toISOString(),
        kind: 'payment',
        order: view,
      });
    if (within(order.refundedAt)) {
      entries.push({
        ...EMPTY,
        id: `${order.id}:refunded`,
        at: order.refundedAt.toISOString(),
        kind: 'refund',
        order: view,
      });
    }
    if (order.status === 'paid' && within(order.endsAt)) {
      entries.push({
        ...EMPTY,
        id: `${order.id}:ended`,
        at: order.endsAt.toISOString(),
        kind: 'package_ended',
        order: view,
      });
    }
  }
  return entries;
}

/**
 * Seconds online per hour: each connection runs from `connected` to the next `disconnected`. The
 * last event before the window says whether it opened online; a connection still open counts up to
 * now when the bot is online (else it ended with no event, a node stopped: it counts nothing more).
 */
async function uptimeOf(
  ctx: AppContext,
  input: { hwid: string; events: EventRow[]; since: Date; now: number },
): Promise<HourlyPoint[]> {
  const before = await lastConnectionEvent(ctx, { hwid: input.hwid, before: input.since });
  const seconds = new Map<number, number>();
  let openedAt: number | null = before?.kind === 'connected' ? input.since.getTime() : null;
  const close = (end: number) => {
    if (openedAt !== null) addInterval(seconds, openedAt, end);
    openedAt = null;
  };
  for (const event of input.events) {
    if (event.kind === 'connected' && openedAt === null) openedAt = event.at.getTime();
    if (event.kind === 'disconnected') close(event.at.getTime());
  }
  if (openedAt !== null) {
    const state = await ctx.live.botState(input.hwid).catch(() => undefined);
    if (state?.online) close(input.now);
  }
  return [...seconds]
    .sort(([a], [b]) => a - b)
    .map(([hour, value]) => ({ hour: new Date(hour).toISOString(), value: Math.round(value) }));
}

/** Adds the seconds of [start, end) to the hours they fall in. */
function addInterval(seconds: Map<number, number>, start: number, end: number): void {
  for (let hour = Math.floor(start / HOUR_MS) * HOUR_MS; hour < end; hour += HOUR_MS) {
    const covered = Math.min(end, hour + HOUR_MS) - Math.max(start, hour);
    if (covered > 0) seconds.set(hour, (seconds.get(hour) ?? 0) + covered / 1000);
  }
}
