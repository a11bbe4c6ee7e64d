import {
  type AlertPreferences,
  type AppNotification,
  DEFAULT_ALERT_PREFERENCES,
  isDiscordWebhookUrl,
} from '@bot/contracts';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { AppError } from '../../core/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { alertPreferences, notifications } from './alerts.table.ts';

/** Notifications one list shows (the newest). */
const LIST_SIZE = 50;

export async function getAlertPreferences(db: DbOrTx, userId: string): Promise<AlertPreferences> {
  const [row] = await db.select().from(alertPreferences).where(eq(alertPreferences.userId, userId));
  if (!row) return DEFAULT_ALERT_PREFERENCES;
  return {
    botOffline: row.botOffline,
    offlineMinutes: row.offlineMinutes,
    accountError: row.accountError,
    packageExpiring: row.packageExpiring,
    payments: row.payments,
    channels: { inApp: row.channelInApp, email: row.channelEmail, discord: row.channelDiscord },
    discordWebhookUrl: row.discordWebhookUrl,
  };
}

export async function saveAlertPreferences(
  db: DbOrTx,
  userId: string,
  input: AlertPreferences,
): Promise<AlertPreferences> {
  const webhook = input.discordWebhookUrl || null;
  if (webhook && !isDiscordWebhookUrl(webhook)) throw new AppError('DISCORD_WEBHOOK_INVALID');
  if (input.channels.discord && !webhook) throw new AppError('DISCORD_WEBHOOK_REQUIRED');
  const values = {
    botOffline: input.botOffline,
    offlineMinutes: input.offlineMinutes,
    accountError: input.accountError,
    packageExpiring: input.packageExpiring,
    payments: input.payments,
    channelInApp: input.channels.inApp,
    channelEmail: input.channels.email,
    channelDiscord: input.channels.discord,
    discordWebhookUrl: webhook,
    updatedAt: new Date(),
  };
  await db
    .insert(alertPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: alertPreferences.userId, set: values });
  return getAlertPreferences(db, userId);
}

export async function listNotifications(
  db: DbOrTx,
  userId: string,
): Promise<{ data: AppNotification[]; unread: number }> {
  const rows = await db
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
    unread: await unreadCount(db, userId),
  };
}

export async function unreadCount(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ unread: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.unread ?? 0;
}

/** Marks one of the user's notifications read (again: no change); someone else's is not found. */
export async function markNotificationRead(db: DbOrTx, userId: string, id: string): Promise<void> {
  const [found] = await db
    .select({ readAt: notifications.readAt })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  if (!found) throw new AppError('NOT_FOUND');
  if (!found.readAt)
    await db.update(notifications).set({ readAt: new Date() }).where(eq(notifications.id, id));
}

export async function markAllNotificationsRead(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}
