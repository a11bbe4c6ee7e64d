import {
  type AlertPreferences,
  type AppNotification,
  DEFAULT_ALERT_PREFERENCES,
  DEFAULT_FLEET_ALERT_PREFERENCES,
  FLEET_ALERT_FIELDS,
  FLEET_ALERT_RULES,
  type FleetAlertPreferences,
  type FleetAlertRule,
  fleetAlertRulesFor,
  isDiscordWebhookUrl,
  REMINDER_HOURS,
  type ReminderHours,
} from '@bot/contracts';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { getUserPermissions } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { alertPreferences, notifications } from './alerts.table.ts';
import { openWebhook, sealWebhook, webhookDigest } from './discord-webhooks.ts';

/** Notifications one list shows (the newest). */
const LIST_SIZE = 50;

export async function getAlertPreferences(ctx: AppContext, userId: string): Promise<AlertPreferences> {
  const [row] = await ctx.db.select().from(alertPreferences).where(eq(alertPreferences.userId, userId));
  if (!row) return DEFAULT_ALERT_PREFERENCES;
  return {
    botOffline: row.botOffline,
    offlineMinutes: row.offlineMinutes,
    accountError: row.accountError,
    packageExpiring: row.packageExpiring,
    payments: row.payments,
    channels: { inApp: row.channelInApp, email: row.channelEmail, discord: row.channelDiscord },
    // Shown back to its owner as it is today (their form edits it); stored sealed.
    discordWebhookUrl: openWebhook(ctx.sealingKey, {
      sealed: row.discordWebhookSealed,
      legacy: row.legacyDiscordWebhookUrl,
    }),
    reminderHours: toReminderHours(row.reminderHours),
    emailDigest: row.emailDigest,
  };
}

function toReminderHours(hours: number): ReminderHours {
  return (REMINDER_HOURS as readonly number[]).includes(hours) ? (hours as ReminderHours) : 0;
}

export async function saveAlertPreferences(
  ctx: AppContext,
  userId: string,
  input: AlertPreferences,
): Promise<AlertPreferences> {
  const webhook = input.discordWebhookUrl || null;
  if (webhook && !isDiscordWebhookUrl(webhook)) throw new AppError('DISCORD_WEBHOOK_INVALID');
  if (input.channels.discord && !webhook) throw new AppError('DISCORD_WEBHOOK_REQUIRED');
  const stored = webhook ? sealWebhook(ctx.sealingKey, webhook) : null;
  const values = {
    botOffline: input.botOffline,
    offlineMinutes: input.offlineMinutes,
    accountError: input.accountError,
    packageExpiring: input.packageExpiring,
    payments: input.payments,
    channelInApp: input.channels.inApp,
    channelEmail: input.channels.email,
    channelDiscord: input.channels.discord,
    discordWebhookSealed: stored?.sealed ?? null,
    discordWebhookDigest: stored?.digest ?? null,
    legacyDiscordWebhookUrl: null,
    reminderHours: input.reminderHours,
    emailDigest: input.emailDigest,
    updatedAt: new Date(),
  };
  await inTransaction(ctx, async (tx) => {
    const [before] = await tx.db
      .select({
        digest: alertPreferences.discordWebhookDigest,
        legacy: alertPreferences.legacyDiscordWebhookUrl,
      })
      .from(alertPreferences)
      .where(eq(alertPreferences.userId, userId));
    const digestBefore = before?.digest ?? (before?.legacy ? webhookDigest(before.legacy) : null);
    // Another webhook: the old one's failure no longer says anything (decision 907).
    const resetDiscord =
      before && digestBefore !== (stored?.digest ?? null)
        ? { discordFailingSince: null, discordLastError: null }
        : {};
    await tx.db
      .insert(alertPreferences)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: alertPreferences.userId, set: { ...values, ...resetDiscord } });
  });
  return getAlertPreferences(ctx, userId);
}

/** A staff member's fleet alerts (decision 903) and those their permissions open. */
export async function getFleetAlertPreferences(
  ctx: AppContext,
  userId: string,
): Promise<{ data: FleetAlertPreferences; allowed: FleetAlertRule[] }> {
  return {
    data: await readFleetAlertPreferences(ctx, userId),
    allowed: fleetAlertRulesFor(await getUserPermissions(ctx, userId)),
  };
}

async function readFleetAlertPreferences(ctx: AppContext, userId: string): Promise<FleetAlertPreferences> {
  const [row] = await ctx.db
    .select({
      fleetErrors: alertPreferences.fleetErrors,
      fleetErrorPercent: alertPreferences.fleetErrorPercent,
      paymentWebhooks: alertPreferences.paymentWebhooks,
      mailBacklog: alertPreferences.mailBacklog,
      releaseHalted: alertPreferences.releaseHalted,
      keySetExpiring: alertPreferences.keySetExpiring,
    })
    .from(alertPreferences)
    .where(eq(alertPreferences.userId, userId));
  return row ?? DEFAULT_FLEET_ALERT_PREFERENCES;
}

/**
 * Saves a staff member's fleet alerts. Turning on one their permissions do not open is refused
 * (`FLEET_ALERT_FORBIDDEN`); one they had before losing the permission is switched off with the save
 * (it no longer applies, and it must not block their other choices). A change is audited: who
 * watches the fleet is the staff's business.
 */
export async function saveFleetAlertPreferences(
  ctx: AppContext,
  input: { actor: AuditActor & { id: string; username: string }; preferences: FleetAlertPreferences },
): Promise<{ data: FleetAlertPreferences; allowed: FleetAlertRule[] }> {
  const { actor, preferences } = input;
  const allowed = fleetAlertRulesFor(await getUserPermissions(ctx, actor.id));
  const data = await inTransaction(ctx, async (tx) => {
    const before = await readFleetAlertPreferences(tx, actor.id);
    const after = { ...preferences };
    for (const rule of FLEET_ALERT_RULES) {
      const field = FLEET_ALERT_FIELDS[rule];
      if (allowed.includes(rule)) continue;
      if (after[field] && !before[field]) throw new AppError('FLEET_ALERT_FORBIDDEN');
      after[field] = false;
    }
    const values = { ...after, updatedAt: new Date() };
    await tx.db
      .insert(alertPreferences)
      .values({ userId: actor.id, ...values })
      .onConflictDoUpdate({ target: alertPreferences.userId, set: values });
    const isChanged = (Object.keys(after) as (keyof FleetAlertPreferences)[]).some(
      (key) => before[key] !== after[key],
    );
    if (isChanged) {
      await writeAudit(tx, {
        actor,
        action: 'alerts.fleet_update',
        target: { type: 'user', id: actor.id, label: actor.username },
        before,
        after,
      });
    }
    return readFleetAlertPreferences(tx, actor.id);
  });
  return { data, allowed };
}

export async function listNotifications(
  ctx: AppContext,
  userId: string,
): Promise<{ data: AppNotification[]; unread: number }> {
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(LIST_SIZE);
  return {
    data: rows.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      kind: row.kind,
      rule: row.rule,
      title: row.title,
      body: row.body,
      readAt: row.readAt?.toISOString() ?? null,
    })),
    unread: await unreadCount(ctx, userId),
  };
}

export async function unreadCount(ctx: AppContext, userId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ unread: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.unread ?? 0;
}

/** Marks one of the user's notifications read (again: no change); someone else's is not found. */
export async function markNotificationRead(ctx: AppContext, userId: string, id: string): Promise<void> {
  const [found] = await ctx.db
    .select({ readAt: notifications.readAt })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  if (!found) throw new AppError('NOT_FOUND');
  if (!found.readAt)
    await ctx.db.update(notifications).set({ readAt: new Date() }).where(eq(notifications.id, id));
}

export async function markAllNotificationsRead(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}
