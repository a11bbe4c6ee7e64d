import { ALERT_RULES, NOTIFICATION_KINDS } from '@bot/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';
import { userIdColumn, users } from '../users/index.ts';

/**
 * What a customer wants to be told about their bot, and where (decision 902); staff add fleet alerts
 * (decision 903). One row per user.
 */
export const alertPreferences = pgTable('alert_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  botOffline: boolean('bot_offline').notNull().default(false),
  offlineMinutes: integer('offline_minutes').notNull().default(10),
  accountError: boolean('account_error').notNull().default(false),
  packageExpiring: boolean('package_expiring').notNull().default(false),
  payments: boolean('payments').notNull().default(false),
  channelInApp: boolean('channel_in_app').notNull().default(true),
  channelEmail: boolean('channel_email').notNull().default(false),
  channelDiscord: boolean('channel_discord').notNull().default(false),
  /**
   * The Discord webhook sealed under the master key: its address is the right to post in the
   * customer's channel (docs/security.md, "Storage"). The digest (SHA-256) finds the users of one
   * webhook when Discord refuses it, without unsealing every row.
   */
  discordWebhookSealed: text('discord_webhook_sealed'),
  discordWebhookDigest: text('discord_webhook_digest'),
  /** Before migration 0024 the webhook was stored in clear: sealed at the first start, never written. */
  legacyDiscordWebhookUrl: text('discord_webhook_url'),
  /** Staff's fleet alerts (decision 903), open to them by their permissions. */
  fleetErrors: boolean('fleet_errors').notNull().default(false),
  fleetErrorPercent: integer('fleet_error_percent').notNull().default(20),
  paymentWebhooks: boolean('payment_webhooks').notNull().default(false),
  mailBacklog: boolean('mail_backlog').notNull().default(false),
  releaseHalted: boolean('release_halted').notNull().default(false),
  /** The root-signed key set expires within 14 days (decision 912). */
  keySetExpiring: boolean('key_set_expiring').notNull().default(false),
  /** A reminder every so many hours while an incident stays open; 0: never (decision 907). */
  reminderHours: integer('reminder_hours').notNull().default(0),
  /** E-mail alerts gathered into one mail a day (decision 907). */
  emailDigest: boolean('email_digest').notNull().default(false),
  /** A channel failing (decision 907): since when, the last error; cleared by a success or a new address. */
  emailFailingSince: timestamp('email_failing_since', { withTimezone: true }),
  emailLastError: text('email_last_error'),
  discordFailingSince: timestamp('discord_failing_since', { withTimezone: true }),
  discordLastError: text('discord_last_error'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One condition holding for one subject (the bot, or one of its game accounts), from the moment the
 * evaluator sees it until it stops. At most one open incident per user, rule and subject.
 */
export const alertIncidents = pgTable(
  'alert_incidents',
  {
    id: uuid('id').primaryKey(),
    userId: userIdColumn(),
    /** The bot's PC (bot rules); null for the account's own rules (package, payments) and the fleet's. */
    hwid: text('hwid'),
    rule: text('rule', { enum: ALERT_RULES }).notNull(),
    /** The hwid (bot_offline), the game account's name (account_error), the order's id, or the fleet's part. */
    subject: text('subject').notNull(),
    /** When the condition started (the disconnection, the account's error). */
    since: timestamp('since', { withTimezone: true }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    /** The quiet period: the alert waits until then (a flapping subject stays silent). */
    notifyAfter: timestamp('notify_after', { withTimezone: true }).notNull(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** Only incidents whose alert went out get a recovery message. */
    recoveryNotifiedAt: timestamp('recovery_notified_at', { withTimezone: true }),
    /** The last reminder while it stays open (decision 907). */
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('alert_incidents_open_idx').on(t.userId, t.rule, t.subject).where(sql`${t.closedAt} is null`),
    index('alert_incidents_user_closed_idx').on(t.userId, t.closedAt),
  ],
);

/** The in-app notification centre. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey(),
    userId: userIdColumn(),
    incidentId: uuid('incident_id').references(() => alertIncidents.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    rule: text('rule', { enum: ALERT_RULES }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * Discord webhook messages waiting to be sent, written in the transaction that decides to send them
 * (like the mail outbox): a Discord outage or a restart loses nothing, a request never waits on it.
 */
export const discordOutbox = pgTable(
  'discord_outbox',
  {
    id: uuid('id').primaryKey(),
    /** The webhook, sealed like the preferences' (the message itself holds no secret). */
    urlSealed: text('url_sealed'),
    /** SHA-256 of the webhook: whose channel failed when Discord refuses it (channel-health.ts). */
    webhookDigest: text('webhook_digest'),
    /** Before migration 0024 the webhook was stored in clear: sealed at the first start, never written. */
    legacyUrl: text('url'),
    payload: json('payload').$type<Record<string, unknown>>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('discord_outbox_due_idx').on(t.nextAttemptAt)],
);

/**
 * E-mail alerts waiting for the user's daily digest (decision 907): `day` is the Paris calendar day
 * they happened on; the digest of a day leaves once that day is over, the rows deleted as it is queued.
 */
export const alertDigestEntries = pgTable(
  'alert_digest_entries',
  {
    id: uuid('id').primaryKey(),
    userId: userIdColumn(),
    day: text('day').notNull(),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('alert_digest_entries_day_idx').on(t.day, t.userId)],
);
