import { z } from 'zod';

/** What a customer may be told about their bot (decision 902). */
export const ALERT_RULES = [
  'bot_offline',
  'account_error',
  'package_expiring',
  'payment_succeeded',
  'payment_failed',
] as const;
export type AlertRule = (typeof ALERT_RULES)[number];

/** A webhook Discord gives: https://discord.com/api/webhooks/<id>/<token> (or the older discordapp.com). */
export const DISCORD_WEBHOOK_PATTERN =
  /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d+)?\/webhooks\/\d{5,30}\/[\w-]{20,120}$/;

export function isDiscordWebhookUrl(value: string): boolean {
  return DISCORD_WEBHOOK_PATTERN.test(value);
}

export const OFFLINE_MINUTES_MIN = 1;
export const OFFLINE_MINUTES_MAX = 1440;

export const alertPreferencesSchema = z.object({
  /** Bot offline for more than `offlineMinutes` (and back online). */
  botOffline: z.boolean(),
  offlineMinutes: z.number().int().min(OFFLINE_MINUTES_MIN).max(OFFLINE_MINUTES_MAX),
  /** A game account in `error` (and recovered). */
  accountError: z.boolean(),
  /** The package ends within 3 days (and no renewal follows it yet). */
  packageExpiring: z.boolean(),
  /** A payment succeeded or failed. */
  payments: z.boolean(),
  channels: z.object({ inApp: z.boolean(), email: z.boolean(), discord: z.boolean() }),
  /** Checked by the server (`DISCORD_WEBHOOK_INVALID`), so that the answer says what is wrong. */
  discordWebhookUrl: z.string().trim().max(300).nullable(),
});
export type AlertPreferences = z.infer<typeof alertPreferencesSchema>;

export const DEFAULT_ALERT_PREFERENCES: AlertPreferences = {
  botOffline: false,
  offlineMinutes: 10,
  accountError: false,
  packageExpiring: false,
  payments: false,
  channels: { inApp: true, email: false, discord: false },
  discordWebhookUrl: null,
};

export const alertPreferencesAnswer = z.object({ data: alertPreferencesSchema });

export const NOTIFICATION_KINDS = ['alert', 'recovery', 'info'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationSchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  rule: z.enum(ALERT_RULES),
  title: z.string(),
  body: z.string(),
  readAt: z.string().nullable(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

export const notificationsAnswer = z.object({
  data: z.array(notificationSchema),
  /** Unread notifications in all (the list holds the newest ones only). */
  unread: z.number().int(),
});
export type NotificationsAnswer = z.infer<typeof notificationsAnswer>;

export const unreadCountAnswer = z.object({ data: z.object({ unread: z.number().int() }) });
