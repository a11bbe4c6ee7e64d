import { z } from 'zod';
import { HWID_MATCH_POLICIES, LEASE_MAX_GRACE_HOURS, LEASE_MAX_LIFETIME_HOURS } from './licensing.ts';
import { runningMaintenanceSchema } from './maintenance-windows.ts';
import { stableVersionSchema } from './releases.ts';

/** The audit trail is kept at least a year, whatever staff set (docs/capacity.md, "Retention"). */
export const AUDIT_RETENTION_FLOOR_DAYS = 365;
/** Days of rows the pages read back (the timeline's 30 days, the adoption's 7): a retention never goes below. */
const retentionDays = (min: number) => z.number().int().min(min).max(3650);

/** Every site setting with its validation and its default. */
export const siteSettingsSchema = z.strictObject({
  isSnow: z.boolean(),
  registrationOpen: z.boolean(),
  maintenanceMode: z.boolean(),
  maintenanceMessage: z.string().max(500),
  hwidResetCooldownHours: z
    .number()
    .int()
    .min(0)
    .max(24 * 365),
  /** Self-service unbinds allowed per 30 days (staff resets are not counted). */
  hwidResetsPerMonth: z.number().int().min(1).max(100),
  /** When a session's hardware components count as the bound PC (docs/licensing.md). */
  hwidMatchPolicy: z.enum(HWID_MATCH_POLICIES),
  botOfflineTimeoutSeconds: z.number().int().min(5).max(3600),
  minBotVersion: stableVersionSchema,
  announcement: z.string().max(500),
  staffTwoFactorRequired: z.boolean(),
  /** How long a bot lease is valid (docs/licensing.md). */
  leaseLifetimeHours: z.number().int().min(1).max(LEASE_MAX_LIFETIME_HOURS),
  /** How long past its expiry an agent that cannot reach the platform keeps running. */
  leaseGraceHours: z.number().int().min(0).max(LEASE_MAX_GRACE_HOURS),
  /** How long the lines of the bots' journals are kept (decision 209). */
  botLogRetentionDays: z.number().int().min(1).max(90),
  /** The share of its channel a newly published build is first offered to (decision 910). */
  releaseRolloutPercent: z.number().int().min(1).max(100),
  /** A rollout halts itself when its bots fare this many times worse than the previous version's. */
  rolloutHaltRatio: z.number().min(1.1).max(20),
  /** Bots on the new version needed before the halt judges it. */
  rolloutHaltMinBots: z.number().int().min(1).max(10_000),
  /** How long in-app notifications are kept before the pruning loop deletes them (decision 907). */
  notificationRetentionDays: z.number().int().min(1).max(3650),
  /*
   * Tables that only grow, each pruned past its own number of days (docs/capacity.md, "Retention");
   * rows still needed are kept whatever their age (an open session, a mail not sent yet…).
   */
  /** Connections, errors and bindings of the bots (the timeline reads 30 days). */
  botEventRetentionDays: retentionDays(30),
  /** Bot sessions, counted from their end (revoked or expired). */
  botSessionRetentionDays: retentionDays(1),
  /** Finished remote commands (the timeline reads 30 days). */
  botCommandRetentionDays: retentionDays(30),
  /** The bots' minute-by-minute history (the owner's page reads a day, the dashboard up to 90). */
  botHistoryRetentionDays: retentionDays(1),
  /** Sent or abandoned mails of the outbox. */
  mailRetentionDays: retentionDays(1),
  /** Sent or abandoned Discord messages of the outbox. */
  discordRetentionDays: retentionDays(1),
  /** Payment webhook calls and handled events (Stripe resends an event for 30 days: kept as long at least). */
  paymentWebhookRetentionDays: retentionDays(30),
  /** Samples of the versions online (the releases page reads 7 days). */
  versionSampleRetentionDays: retentionDays(7),
  /** Activation and password-reset links once used or expired. */
  userTokenRetentionDays: retentionDays(1),
  /** The audit trail: a year at least. */
  auditRetentionDays: z
    .number()
    .int()
    .min(
      AUDIT_RETENTION_FLOOR_DAYS,
      `Le journal d’audit est conservé au moins ${AUDIT_RETENTION_FLOOR_DAYS} jours (un an).`,
    )
    .max(3650),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

export const DEFAULT_SETTINGS: SiteSettings = {
  isSnow: false,
  registrationOpen: true,
  maintenanceMode: false,
  maintenanceMessage: '',
  hwidResetCooldownHours: 24,
  hwidResetsPerMonth: 3,
  hwidMatchPolicy: 'most',
  botOfflineTimeoutSeconds: 30,
  minBotVersion: '0.0.0',
  announcement: '',
  staffTwoFactorRequired: false,
  leaseLifetimeHours: 24,
  leaseGraceHours: 24,
  botLogRetentionDays: 3,
  releaseRolloutPercent: 10,
  rolloutHaltRatio: 2,
  rolloutHaltMinBots: 5,
  notificationRetentionDays: 90,
  botEventRetentionDays: 90,
  botSessionRetentionDays: 30,
  botCommandRetentionDays: 30,
  botHistoryRetentionDays: 30,
  mailRetentionDays: 30,
  discordRetentionDays: 30,
  paymentWebhookRetentionDays: 90,
  versionSampleRetentionDays: 30,
  userTokenRetentionDays: 30,
  auditRetentionDays: AUDIT_RETENTION_FLOOR_DAYS,
};

/** The settings of the « Conservation des données » card, in its order. */
export const RETENTION_SETTINGS = [
  'botEventRetentionDays',
  'botSessionRetentionDays',
  'botCommandRetentionDays',
  'botHistoryRetentionDays',
  'botLogRetentionDays',
  'notificationRetentionDays',
  'mailRetentionDays',
  'discordRetentionDays',
  'paymentWebhookRetentionDays',
  'versionSampleRetentionDays',
  'userTokenRetentionDays',
  'auditRetentionDays',
] as const satisfies readonly (keyof SiteSettings)[];

/** Body of `PUT /admin/settings`: any subset of the settings, unknown keys refused. */
export const settingsUpdateInput = siteSettingsSchema.partial();
export type SettingsUpdateInput = z.infer<typeof settingsUpdateInput>;

/** French labels of the settings, for the admin page and the history. */
export const SETTINGS_LABELS: Record<keyof SiteSettings, string> = {
  isSnow: 'Affichage de la neige',
  registrationOpen: 'Inscriptions ouvertes',
  maintenanceMode: 'Mode maintenance',
  maintenanceMessage: 'Message de maintenance',
  hwidResetCooldownHours: 'Délai entre deux réinitialisations du HWID (heures)',
  hwidResetsPerMonth: 'Réinitialisations du HWID par le client sur 30 jours',
  hwidMatchPolicy: 'Même PC quand les composants matériels concordent',
  botOfflineTimeoutSeconds: 'Bot hors ligne après (secondes sans nouvelles)',
  minBotVersion: 'Version minimale du bot',
  announcement: 'Bannière d’annonce',
  staffTwoFactorRequired: 'Double authentification obligatoire pour le personnel',
  leaseLifetimeHours: 'Durée de validité du bail du bot (heures)',
  leaseGraceHours: 'Délai de grâce du bail hors connexion (heures)',
  botLogRetentionDays: 'Conservation du journal des bots (jours)',
  releaseRolloutPercent: 'Première part d’un déploiement (%)',
  rolloutHaltRatio: 'Seuil d’arrêt d’un déploiement (×)',
  rolloutHaltMinBots: 'Bots nécessaires pour juger une version',
  notificationRetentionDays: 'Conservation des notifications (jours)',
  botEventRetentionDays: 'Conservation des événements des bots (jours)',
  botSessionRetentionDays: 'Conservation des sessions de bot terminées (jours)',
  botCommandRetentionDays: 'Conservation des commandes aux bots terminées (jours)',
  botHistoryRetentionDays: 'Conservation de l’historique minute par minute des bots (jours)',
  mailRetentionDays: 'Conservation des e-mails envoyés (jours)',
  discordRetentionDays: 'Conservation des messages Discord envoyés (jours)',
  paymentWebhookRetentionDays: 'Conservation des appels et événements de paiement (jours)',
  versionSampleRetentionDays: 'Conservation des relevés de versions des bots (jours)',
  userTokenRetentionDays: 'Conservation des liens utilisés ou expirés (jours)',
  auditRetentionDays: 'Conservation du journal d’audit (jours)',
};

export const publicSettingsSchema = siteSettingsSchema
  .pick({
    isSnow: true,
    registrationOpen: true,
    maintenanceMode: true,
    maintenanceMessage: true,
    announcement: true,
    // Customers are told the cooldown before they unbind their PC.
    hwidResetCooldownHours: true,
  })
  .extend({
    /** The maintenance window running now, if any (decision 907): the banner shows its message. */
    maintenanceWindow: runningMaintenanceSchema,
  });
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

/** Runtime config the server gives the web app at `/config.json`. */
export const runtimeConfigSchema = z.object({
  apiBaseUrl: z.string(),
  socketUrl: z.string(),
  buildId: z.string(),
  buildCheckIntervalMs: z.number().int().positive(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
