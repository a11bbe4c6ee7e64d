import { z } from 'zod';
import type { Permission } from './permissions.ts';

/** The fleet alerts staff may choose (decision 903). */
export const FLEET_ALERT_RULES = [
  'fleet_errors',
  'payment_webhooks',
  'mail_backlog',
  'release_halted',
  'key_set_expiring',
] as const;
export type FleetAlertRule = (typeof FLEET_ALERT_RULES)[number];

export function isFleetAlertRule(rule: string): rule is FleetAlertRule {
  return (FLEET_ALERT_RULES as readonly string[]).includes(rule);
}

/** What a customer may be told about their bot (decision 902), and staff about the fleet. */
export const ALERT_RULES = [
  'bot_offline',
  'account_error',
  'package_expiring',
  'payment_succeeded',
  'payment_failed',
  ...FLEET_ALERT_RULES,
  /** A test the user asked for from the channels card (`POST /me/alerts/test`). */
  'channel_test',
  /** One of the user's channels keeps failing (decision 907): told in-app once. */
  'channel_failure',
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
const OFFLINE_MINUTES_MESSAGE = `Entre ${OFFLINE_MINUTES_MIN} et ${OFFLINE_MINUTES_MAX} minutes.`;

/** The reminder choices: never, or every 1, 6 or 24 hours. */
export const REMINDER_HOURS = [0, 1, 6, 24] as const;
export type ReminderHours = (typeof REMINDER_HOURS)[number];

export const REMINDER_LABELS: Record<ReminderHours, string> = {
  0: 'Jamais',
  1: 'Toutes les heures',
  6: 'Toutes les 6 heures',
  24: 'Toutes les 24 heures',
};

export const alertPreferencesSchema = z.object({
  /** Bot offline for more than `offlineMinutes` (and back online). */
  botOffline: z.boolean(),
  offlineMinutes: z
    .number({ error: OFFLINE_MINUTES_MESSAGE })
    .int(OFFLINE_MINUTES_MESSAGE)
    .min(OFFLINE_MINUTES_MIN, OFFLINE_MINUTES_MESSAGE)
    .max(OFFLINE_MINUTES_MAX, OFFLINE_MINUTES_MESSAGE),
  /** A game account in `error` (and recovered). */
  accountError: z.boolean(),
  /** The package ends within 3 days (and no renewal follows it yet). */
  packageExpiring: z.boolean(),
  /** A payment succeeded or failed. */
  payments: z.boolean(),
  channels: z.object({ inApp: z.boolean(), email: z.boolean(), discord: z.boolean() }),
  /** Checked by the server (`DISCORD_WEBHOOK_INVALID`), so that the answer says what is wrong. */
  discordWebhookUrl: z.string().trim().max(300).nullable(),
  /** A reminder every so many hours while an incident stays open; 0: never (decision 907). */
  reminderHours: z.union(REMINDER_HOURS.map((hours) => z.literal(hours))).default(0),
  /** E-mail: one mail a day summarising the day's alerts instead of one mail each (decision 907). */
  emailDigest: z.boolean().default(false),
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
  reminderHours: 0,
  emailDigest: false,
};

export const alertPreferencesAnswer = z.object({ data: alertPreferencesSchema });

/** The channels an alert goes through, as named in `channels`. */
export const ALERT_CHANNELS = ['inApp', 'email', 'discord'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** A test message through one channel (the saved address or webhook), asked from the channels card. */
export const alertTestSchema = z.object({ channel: z.enum(ALERT_CHANNELS) });
export type AlertTest = z.infer<typeof alertTestSchema>;

/** A channel that keeps failing (decision 907): since when, and the last error. */
export const channelFailureSchema = z.object({ since: z.string(), lastError: z.string() }).nullable();
export type ChannelFailure = z.infer<typeof channelFailureSchema>;

/** `GET /me/alerts/channels`: the e-mail and Discord channels' health (in-app cannot fail). */
export const channelHealthAnswer = z.object({
  data: z.object({ email: channelFailureSchema, discord: channelFailureSchema }),
});
export type ChannelHealth = z.infer<typeof channelHealthAnswer>['data'];

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

/** A fleet alert is open to staff holding one of these permissions (checked again at each evaluation). */
export const FLEET_ALERT_PERMISSIONS: Record<FleetAlertRule, readonly Permission[]> = {
  fleet_errors: ['can_manageMap', 'can_manageUsersOnline'],
  payment_webhooks: ['can_manageSettings'],
  mail_backlog: ['can_manageSettings'],
  release_halted: ['can_manageSettings'],
  key_set_expiring: ['can_manageSettings'],
};

/**
 * Fleet alerts every holder of their permission gets whether or not they chose fleet alerts: an
 * expired key set stops every bot (decision 912). In-app by default, and on the channels they chose.
 */
export const ALWAYS_ON_FLEET_ALERT_RULES: readonly FleetAlertRule[] = ['key_set_expiring'];

export function fleetAlertRulesFor(held: readonly Permission[]): FleetAlertRule[] {
  return FLEET_ALERT_RULES.filter((rule) =>
    FLEET_ALERT_PERMISSIONS[rule].some((permission) => held.includes(permission)),
  );
}

/** The preference field that turns each fleet alert on. */
export const FLEET_ALERT_FIELDS = {
  fleet_errors: 'fleetErrors',
  payment_webhooks: 'paymentWebhooks',
  mail_backlog: 'mailBacklog',
  release_halted: 'releaseHalted',
  key_set_expiring: 'keySetExpiring',
} as const satisfies Record<FleetAlertRule, string>;

export const FLEET_ALERT_LABELS: Record<FleetAlertRule, string> = {
  fleet_errors: 'Part des bots en erreur',
  payment_webhooks: 'Webhooks de paiement en échec',
  mail_backlog: 'File des e-mails en retard',
  release_halted: 'Déploiement d’une version arrêté de lui-même',
  key_set_expiring: 'Jeu de clés des bots bientôt expiré',
};

export const FLEET_ERROR_PERCENT_MIN = 1;
export const FLEET_ERROR_PERCENT_MAX = 100;
const FLEET_ERROR_PERCENT_MESSAGE = `Entre ${FLEET_ERROR_PERCENT_MIN} et ${FLEET_ERROR_PERCENT_MAX} %.`;
/** Payment webhooks are failing when this many failed within the window and the last one failed. */
export const WEBHOOK_FAILURES_THRESHOLD = 3;
export const WEBHOOK_FAILURES_WINDOW_MINUTES = 15;
/** The mail outbox is backing up when a mail has waited this long without being sent. */
export const MAIL_BACKLOG_MINUTES = 10;

export const fleetAlertPreferencesSchema = z.object({
  /** The share of online bots with a game account in `error` reaches `fleetErrorPercent`. */
  fleetErrors: z.boolean(),
  fleetErrorPercent: z
    .number({ error: FLEET_ERROR_PERCENT_MESSAGE })
    .int(FLEET_ERROR_PERCENT_MESSAGE)
    .min(FLEET_ERROR_PERCENT_MIN, FLEET_ERROR_PERCENT_MESSAGE)
    .max(FLEET_ERROR_PERCENT_MAX, FLEET_ERROR_PERCENT_MESSAGE),
  /** Stripe's webhooks fail (a signature refused, an error) several times in a row. */
  paymentWebhooks: z.boolean(),
  /** A mail waits in the outbox for more than `MAIL_BACKLOG_MINUTES`. */
  mailBacklog: z.boolean(),
  /** A staged rollout halted itself: the new version fares worse than the previous (decision 910). */
  // Optional in a request: clients written before it keep working (it stays off).
  releaseHalted: z.boolean().default(false),
  /**
   * The key set the offline root signed expires within `KEY_SET_EXPIRY_WARNING_DAYS` (decision 912):
   * past it every agent refuses every lease. Optional in a request, like `releaseHalted`.
   */
  keySetExpiring: z.boolean().default(false),
});
export type FleetAlertPreferences = z.infer<typeof fleetAlertPreferencesSchema>;

export const DEFAULT_FLEET_ALERT_PREFERENCES: FleetAlertPreferences = {
  fleetErrors: false,
  fleetErrorPercent: 20,
  paymentWebhooks: false,
  mailBacklog: false,
  releaseHalted: false,
  keySetExpiring: false,
};

export const fleetAlertPreferencesAnswer = z.object({
  data: fleetAlertPreferencesSchema,
  /** The fleet alerts this staff member's permissions open (the others cannot be turned on). */
  allowed: z.array(z.enum(FLEET_ALERT_RULES)),
});
export type FleetAlertPreferencesAnswer = z.infer<typeof fleetAlertPreferencesAnswer>;
