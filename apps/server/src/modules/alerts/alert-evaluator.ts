import { type AlertRule, FLEET_ALERT_RULES, isFleetAlertRule } from '@bot/contracts';
import { and, eq, inArray, isNull, max, notInArray, sql } from 'drizzle-orm';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { newId } from '../../core/ids.ts';
import { type MaintenanceState, maintenanceState } from '../maintenance-windows/index.ts';
import { expiringPackages, recentPayments } from './account-conditions.ts';
import { type HoldingCondition, holdingConditions } from './alert-conditions.ts';
import { deliver } from './alert-delivery.ts';
import { sendDueDigests } from './alert-digest.ts';
import { type AlertMessage, alertMessage, recoveryMessage, reminderMessage } from './alert-messages.ts';
import { type WatchedUser, watchedUsers } from './alert-watchers.ts';
import { alertIncidents } from './alerts.table.ts';
import { type FleetState, fleetConditions, isFleetRuleUnknown, readFleetState } from './fleet-conditions.ts';

/** The advisory lock key of the evaluation (one per cluster at a time, decision 902). */
const EVALUATION_LOCK = 902_001;

type Incident = typeof alertIncidents.$inferSelect;

/** Rules about the bot (tied to its hwid). */
const BOT_RULES = new Set<AlertRule>(['bot_offline', 'account_error']);
/** Rules told again when they stop holding (the others end silently). */
const RECOVERING_RULES = new Set<AlertRule>([...BOT_RULES, ...FLEET_ALERT_RULES]);

/**
 * One evaluation of every user's alerts, in one transaction holding a transaction-level advisory
 * lock: a node that finds the lock taken skips its turn (another node is evaluating), and the lock
 * is released by the commit, whatever connection the pool gave. Everything is derived from the
 * database (events, open incidents), so the next evaluation, on any node, continues where this one
 * stopped. Answers false when another node held the lock.
 */
export async function evaluateAlerts(ctx: AppContext, now = new Date()): Promise<boolean> {
  const notified = new Set<string>();
  const evaluated = await inTransaction(ctx, async (tx) => {
    const locked = await tx.db.execute(sql`select pg_try_advisory_xact_lock(${EVALUATION_LOCK}) as locked`);
    if (!(locked as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked) return false;
    const watched = await watchedUsers(tx);
    const wanted = new Set(watched.flatMap((user) => [...user.fleetRules]));
    const fleet = await readFleetState(tx, { wanted, now });
    const maintenance = await maintenanceState(tx, now);
    const run: Evaluation = { tx, now, fleet, maintenance, notified };
    for (const user of watched) await evaluateUser(run, user);
    await closeUnwatched(
      tx,
      watched.map((user) => user.userId),
      now,
    );
    await sendDueDigests(tx, now);
    // Published after the commit: the bells of the users just notified update at once, on whatever node.
    if (notified.size > 0) tx.events.emit('notifications.created', { userIds: [...notified] });
    return true;
  });
  return evaluated;
}

/** What one evaluation shares between its users. */
interface Evaluation {
  /** The evaluation's transaction. */
  tx: TxContext;
  now: Date;
  fleet: FleetState;
  /** The maintenance windows: rules muted now, and when the last window of each rule ended (decision 907). */
  maintenance: MaintenanceState;
  /** Users who got an in-app notification. */
  notified: Set<string>;
}

/** Everything that holds for one user now; `accountsKnown`: false while the bot is offline. */
async function conditionsOf({ tx, now, fleet }: Evaluation, user: WatchedUser) {
  const bot = user.hwid
    ? await holdingConditions(tx, { ...user, hwid: user.hwid }, now)
    : { holding: [], accountsKnown: false };
  const holding = [
    ...bot.holding,
    ...(user.packageExpiring ? await expiringPackages(tx, user.userId, now) : []),
    ...(user.payments ? await recentPayments(tx, user.userId, now) : []),
    ...fleetConditions(fleet, user, now),
  ];
  return { holding, accountsKnown: bot.accountsKnown };
}

function isRuleOn(user: WatchedUser, rule: AlertRule): boolean {
  if (rule === 'bot_offline') return user.botOffline;
  if (rule === 'account_error') return user.accountError;
  if (rule === 'package_expiring') return user.packageExpiring;
  if (rule === 'payment_succeeded' || rule === 'payment_failed') return user.payments;
  // A test is sent on request, a channel failure when it happens: never an incident.
  if (rule === 'channel_test' || rule === 'channel_failure') return false;
  return user.fleetRules.has(rule);
}

/** An open incident whose condition cannot be read this time stays open (no false recovery). */
function isUnknown(run: Evaluation, incident: Incident, accountsKnown: boolean): boolean {
  if (incident.rule === 'account_error') return !accountsKnown;
  if (isFleetAlertRule(incident.rule)) return isFleetRuleUnknown(run.fleet, incident.rule);
  return false;
}

async function evaluateUser(run: Evaluation, user: WatchedUser): Promise<void> {
  const { tx, now } = run;
  const { holding, accountsKnown } = await conditionsOf(run, user);
  const open = await tx.db
    .select()
    .from(alertIncidents)
    .where(and(eq(alertIncidents.userId, user.userId), isNull(alertIncidents.closedAt)));
  const key = (rule: string, subject: string) => `${rule}\u0000${subject}`;
  const holdingByKey = new Map(
    holding.map((condition) => [key(condition.rule, condition.subject), condition]),
  );
  const { muted } = run.maintenance;
  for (const incident of open) {
    const condition = holdingByKey.get(key(incident.rule, incident.subject));
    const isOtherBot = incident.hwid !== null && incident.hwid !== user.hwid;
    holdingByKey.delete(key(incident.rule, incident.subject));
    // A maintenance window mutes the rule: an incident not yet told ends silently, one already told
    // waits, untouched, for the window's end (decision 907).
    if (muted.has(incident.rule)) {
      if (!incident.notifiedAt) await closeSilently(tx, [incident.id], now);
      continue;
    }
    if (condition) await notifyIfDue(run, user, incident, condition);
    else if (!isRuleOn(user, incident.rule) || isOtherBot) await closeSilently(tx, [incident.id], now);
    else if (!isUnknown(run, incident, accountsKnown)) await closeWithRecovery(run, user, incident);
  }
  for (const condition of holdingByKey.values()) {
    if (muted.has(condition.rule)) continue;
    const incident = await openIncident(tx, user, condition, {
      now,
      quietMs: tx.config.alerts.quietMs,
      windowEnd: run.maintenance.lastEnd.get(condition.rule),
    });
    if (incident) await notifyIfDue(run, user, incident, condition);
  }
}

/**
 * Opens an incident; its alert waits for the quiet period after the last one on the same subject,
 * and after the end of the last maintenance window that muted its rule: what the window left behind
 * settles (a bot reconnecting) before anything is said, and only what still holds then is told
 * (decision 907).
 */
async function openIncident(
  ctx: AppContext,
  user: WatchedUser,
  condition: HoldingCondition,
  { now, quietMs, windowEnd }: { now: Date; quietMs: number; windowEnd: Date | undefined },
): Promise<Incident | undefined> {
  const [previous] = await ctx.db
    .select({ closedAt: max(alertIncidents.closedAt) })
    .from(alertIncidents)
    .where(
      and(
        eq(alertIncidents.userId, user.userId),
        eq(alertIncidents.rule, condition.rule),
        eq(alertIncidents.subject, condition.subject),
      ),
    );
  const quietEnd = Math.max(
    previous?.closedAt ? previous.closedAt.getTime() + quietMs : 0,
    // Only a condition that began before the window ended waits: one born after it is told at once.
    windowEnd && condition.since <= windowEnd ? windowEnd.getTime() + quietMs : 0,
  );
  const [incident] = await ctx.db
    .insert(alertIncidents)
    .values({
      id: newId(),
      userId: user.userId,
      hwid: BOT_RULES.has(condition.rule) ? user.hwid : null,
      rule: condition.rule,
      subject: condition.subject,
      since: condition.since,
      openedAt: now,
      notifyAfter: new Date(Math.max(now.getTime(), quietEnd)),
    })
    .onConflictDoNothing()
    .returning();
  return incident;
}

async function notifyIfDue(
  run: Evaluation,
  user: WatchedUser,
  incident: Incident,
  condition: HoldingCondition,
): Promise<void> {
  const { tx, now } = run;
  if (incident.notifiedAt) return remindIfDue(run, user, incident, condition);
  if (incident.notifyAfter > now) return;
  // Claim first: the message goes out only with the update that marked it sent.
  const claimed = await tx.db
    .update(alertIncidents)
    .set({ notifiedAt: now })
    .where(and(eq(alertIncidents.id, incident.id), isNull(alertIncidents.notifiedAt)))
    .returning({ id: alertIncidents.id });
  if (claimed.length === 0) return;
  const absorbed = incident.rule === 'bot_offline' ? await absorbAccountIncidents(tx, incident, now) : [];
  await deliverTo(run, user, incident.id, alertMessage(incident, now, { ...condition, absorbed }));
}

/**
 * The PC is offline and told: its game accounts' open incidents end inside the bot's, silently (no
 * recovery of their own later). One incident, one message (decision 907); the bot's names the
 * accounts that were in error.
 */
async function absorbAccountIncidents(ctx: AppContext, incident: Incident, now: Date): Promise<string[]> {
  if (!incident.hwid) return [];
  const closed = await ctx.db
    .update(alertIncidents)
    .set({ closedAt: now })
    .where(
      and(
        eq(alertIncidents.userId, incident.userId),
        eq(alertIncidents.hwid, incident.hwid),
        eq(alertIncidents.rule, 'account_error'),
        isNull(alertIncidents.closedAt),
      ),
    )
    .returning({ subject: alertIncidents.subject, notifiedAt: alertIncidents.notifiedAt });
  return closed
    .filter((row) => row.notifiedAt)
    .map((row) => row.subject)
    .sort();
}

/** While an incident stays open, a reminder every `reminderHours` (0: never), claimed like the alert. */
async function remindIfDue(
  run: Evaluation,
  user: WatchedUser,
  incident: Incident,
  condition: HoldingCondition,
): Promise<void> {
  const { tx, now } = run;
  const last = incident.remindedAt ?? incident.notifiedAt;
  if (user.reminderHours === 0 || !last || !RECOVERING_RULES.has(incident.rule)) return;
  if (now.getTime() - last.getTime() < user.reminderHours * 3_600_000) return;
  const claimed = await tx.db
    .update(alertIncidents)
    .set({ remindedAt: now })
    .where(
      and(
        eq(alertIncidents.id, incident.id),
        isNull(alertIncidents.closedAt),
        incident.remindedAt
          ? eq(alertIncidents.remindedAt, incident.remindedAt)
          : isNull(alertIncidents.remindedAt),
      ),
    )
    .returning({ id: alertIncidents.id });
  if (claimed.length === 0) return;
  await deliverTo(run, user, incident.id, reminderMessage(incident, now, condition));
}

async function deliverTo(run: Evaluation, user: WatchedUser, incidentId: string, message: AlertMessage) {
  await deliver(run.tx, { recipient: user, incidentId, message, at: run.now });
  if (user.channelInApp) run.notified.add(user.userId);
}

/** The condition stopped: a recovery message only when its alert went out (a quiet flap stays quiet). */
async function closeWithRecovery(run: Evaluation, user: WatchedUser, incident: Incident): Promise<void> {
  const { tx, now } = run;
  // The account's own rules have nothing to recover from: they end without a message.
  if (!incident.notifiedAt || !RECOVERING_RULES.has(incident.rule))
    return closeSilently(tx, [incident.id], now);
  const claimed = await tx.db
    .update(alertIncidents)
    .set({ closedAt: now, recoveryNotifiedAt: now })
    .where(and(eq(alertIncidents.id, incident.id), isNull(alertIncidents.closedAt)))
    .returning({ id: alertIncidents.id });
  if (claimed.length === 0) return;
  await deliverTo(run, user, incident.id, recoveryMessage(incident, now));
}

async function closeSilently(ctx: AppContext, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await ctx.db
    .update(alertIncidents)
    .set({ closedAt: now })
    .where(and(inArray(alertIncidents.id, ids), isNull(alertIncidents.closedAt)));
}

/** A user who turned every alert off, lost their bot or was banned: their incidents end without a word. */
async function closeUnwatched(ctx: AppContext, watchedIds: string[], now: Date): Promise<void> {
  const watched = watchedIds.length > 0 ? notInArray(alertIncidents.userId, watchedIds) : undefined;
  await ctx.db
    .update(alertIncidents)
    .set({ closedAt: now })
    .where(and(isNull(alertIncidents.closedAt), watched));
}
