import type { AlertRule } from '@bot/contracts';
import { and, eq, inArray, isNull, max, notInArray, or, sql } from 'drizzle-orm';
import { repeatInBackground } from '../../core/background.ts';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/ids.ts';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../users/users.table.ts';
import { expiringPackages, recentPayments } from './account-conditions.ts';
import { type HoldingCondition, holdingConditions } from './alert-conditions.ts';
import { deliver, type Recipient } from './alert-delivery.ts';
import { alertMessage, recoveryMessage } from './alert-messages.ts';
import { alertIncidents, alertPreferences } from './alerts.table.ts';
import { startDiscordOutbox } from './discord-outbox.ts';

/** The advisory lock key of the evaluation (one per cluster at a time, decision 902). */
const EVALUATION_LOCK = 902_001;

type Incident = typeof alertIncidents.$inferSelect;
type WatchedUser = Recipient & {
  hwid: string | null;
  botOffline: boolean;
  offlineMinutes: number;
  accountError: boolean;
  packageExpiring: boolean;
  payments: boolean;
};

/** Rules about the bot (tied to its hwid, told again when they recover). */
const BOT_RULES = new Set<AlertRule>(['bot_offline', 'account_error']);

/**
 * One evaluation of every user's alerts, in one transaction holding a transaction-level advisory
 * lock: a node that finds the lock taken skips its turn (another node is evaluating), and the lock
 * is released by the commit, whatever connection the pool gave. Everything is derived from the
 * database (events, open incidents), so the next evaluation, on any node, continues where this one
 * stopped. Answers false when another node held the lock.
 */
export async function evaluateAlerts(ctx: AppContext, now = new Date()): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const locked = await tx.execute(sql`select pg_try_advisory_xact_lock(${EVALUATION_LOCK}) as locked`);
    if (!(locked as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked) return false;
    const watched = await watchedUsers(tx);
    for (const user of watched) await evaluateUser(ctx, tx, user, now);
    await closeUnwatched(
      tx,
      watched.map((user) => user.userId),
      now,
    );
    return true;
  });
}

/** The alert workers: the evaluation every `evaluateEveryMs`, then the Discord outbox sends what it queued. */
export function startAlerts(ctx: AppContext): void {
  const discord = startDiscordOutbox(ctx);
  startAlertEvaluator(ctx, () => {
    ctx.events.emit('mail.queued', {});
    discord.drain();
  });
}

function startAlertEvaluator(ctx: AppContext, afterEvaluation: () => void): void {
  const timer = repeatInBackground(
    ctx.log,
    'alert evaluation',
    ctx.config.alerts.evaluateEveryMs,
    async () => {
      if (await evaluateAlerts(ctx)) afterEvaluation();
    },
  );
  ctx.onClose(() => clearInterval(timer));
}

async function watchedUsers(db: DbOrTx): Promise<WatchedUser[]> {
  const rows = await db
    .select({ preferences: alertPreferences, email: users.email, hwid: users.hwid })
    .from(alertPreferences)
    .innerJoin(users, eq(users.id, alertPreferences.userId))
    .where(
      and(
        or(
          eq(alertPreferences.botOffline, true),
          eq(alertPreferences.accountError, true),
          eq(alertPreferences.packageExpiring, true),
          eq(alertPreferences.payments, true),
        ),
        isNull(users.bannedAt),
      ),
    );
  return rows.map(({ preferences, email, hwid }) => ({ ...preferences, email, hwid }));
}

/** Everything that holds for one user now; `accountsKnown`: false while the bot is offline. */
async function conditionsOf(tx: DbOrTx, user: WatchedUser, now: Date) {
  const bot = user.hwid
    ? await holdingConditions(tx, { ...user, hwid: user.hwid }, now)
    : { holding: [], accountsKnown: false };
  const holding = [
    ...bot.holding,
    ...(user.packageExpiring ? await expiringPackages(tx, user.userId, now) : []),
    ...(user.payments ? await recentPayments(tx, user.userId, now) : []),
  ];
  return { holding, accountsKnown: bot.accountsKnown };
}

function isRuleOn(user: WatchedUser, rule: AlertRule): boolean {
  if (rule === 'bot_offline') return user.botOffline;
  if (rule === 'account_error') return user.accountError;
  if (rule === 'package_expiring') return user.packageExpiring;
  return user.payments;
}

async function evaluateUser(ctx: AppContext, tx: DbOrTx, user: WatchedUser, now: Date): Promise<void> {
  const { holding, accountsKnown } = await conditionsOf(tx, user, now);
  const open = await tx
    .select()
    .from(alertIncidents)
    .where(and(eq(alertIncidents.userId, user.userId), isNull(alertIncidents.closedAt)));
  const key = (rule: string, subject: string) => `${rule}\u0000${subject}`;
  const holdingByKey = new Map(
    holding.map((condition) => [key(condition.rule, condition.subject), condition]),
  );
  for (const incident of open) {
    const condition = holdingByKey.get(key(incident.rule, incident.subject));
    const isOtherBot = incident.hwid !== null && incident.hwid !== user.hwid;
    const isUnknown = incident.rule === 'account_error' && !accountsKnown && !isOtherBot;
    if (condition) await notifyIfDue(ctx, tx, user, incident, condition, now);
    else if (!isRuleOn(user, incident.rule) || isOtherBot) await closeSilently(tx, [incident.id], now);
    else if (!isUnknown) await closeWithRecovery(ctx, tx, user, incident, now);
    holdingByKey.delete(key(incident.rule, incident.subject));
  }
  for (const condition of holdingByKey.values()) {
    const incident = await openIncident(tx, user, condition, { now, quietMs: ctx.config.alerts.quietMs });
    if (incident) await notifyIfDue(ctx, tx, user, incident, condition, now);
  }
}

/** Opens an incident; its alert waits for the quiet period after the last one on the same subject. */
async function openIncident(
  tx: DbOrTx,
  user: WatchedUser,
  condition: HoldingCondition,
  { now, quietMs }: { now: Date; quietMs: number },
): Promise<Incident | undefined> {
  const [previous] = await tx
    .select({ closedAt: max(alertIncidents.closedAt) })
    .from(alertIncidents)
    .where(
      and(
        eq(alertIncidents.userId, user.userId),
        eq(alertIncidents.rule, condition.rule),
        eq(alertIncidents.subject, condition.subject),
      ),
    );
  const quietEnd = previous?.closedAt ? previous.closedAt.getTime() + quietMs : 0;
  const [incident] = await tx
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
  ctx: AppContext,
  tx: DbOrTx,
  user: WatchedUser,
  incident: Incident,
  condition: HoldingCondition,
  now: Date,
): Promise<void> {
  if (incident.notifiedAt || incident.notifyAfter > now) return;
  // Claim first: the message goes out only with the update that marked it sent.
  const claimed = await tx
    .update(alertIncidents)
    .set({ notifiedAt: now })
    .where(and(eq(alertIncidents.id, incident.id), isNull(alertIncidents.notifiedAt)))
    .returning({ id: alertIncidents.id });
  if (claimed.length === 0) return;
  const message = alertMessage(incident, now, condition);
  await deliver(ctx, tx, { recipient: user, incidentId: incident.id, message, at: now });
}

/** The condition stopped: a recovery message only when its alert went out (a quiet flap stays quiet). */
async function closeWithRecovery(
  ctx: AppContext,
  tx: DbOrTx,
  user: WatchedUser,
  incident: Incident,
  now: Date,
): Promise<void> {
  // The account's own rules have nothing to recover from: they end without a message.
  if (!incident.notifiedAt || !BOT_RULES.has(incident.rule)) return closeSilently(tx, [incident.id], now);
  const claimed = await tx
    .update(alertIncidents)
    .set({ closedAt: now, recoveryNotifiedAt: now })
    .where(and(eq(alertIncidents.id, incident.id), isNull(alertIncidents.closedAt)))
    .returning({ id: alertIncidents.id });
  if (claimed.length === 0) return;
  const message = recoveryMessage(incident, now);
  await deliver(ctx, tx, { recipient: user, incidentId: incident.id, message, at: now });
}

async function closeSilently(tx: DbOrTx, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(alertIncidents)
    .set({ closedAt: now })
    .where(and(inArray(alertIncidents.id, ids), isNull(alertIncidents.closedAt)));
}

/** A user who turned every alert off, lost their bot or was banned: their incidents end without a word. */
async function closeUnwatched(tx: DbOrTx, watchedIds: string[], now: Date): Promise<void> {
  const watched = watchedIds.length > 0 ? notInArray(alertIncidents.userId, watchedIds) : undefined;
  await tx
    .update(alertIncidents)
    .set({ closedAt: now })
    .where(and(isNull(alertIncidents.closedAt), watched));
}
