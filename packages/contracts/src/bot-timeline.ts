import { z } from 'zod';
import { hourlyPointSchema } from './admin.ts';

/**
 * One PC's bot, in time (decision 901): what the bot did (binding, connections, accounts into and out
 * of `error`), what its owner bought, what staff or the owner did to it (from the audit trail).
 */
export const BOT_TIMELINE_KINDS = [
  'bound',
  'connected',
  'disconnected',
  'error',
  'recovered',
  'action',
  'payment',
  'refund',
  'package_ended',
] as const;
export type BotTimelineKind = (typeof BOT_TIMELINE_KINDS)[number];

export const BOT_TIMELINE_LABELS: Record<BotTimelineKind, string> = {
  bound: 'PC lié au compte',
  connected: 'Bot connecté',
  disconnected: 'Bot déconnecté',
  error: 'Compte de jeu en erreur',
  recovered: 'Compte de jeu reparti',
  action: 'Action sur le compte',
  payment: 'Offre payée',
  refund: 'Paiement remboursé',
  package_ended: 'Fin de l’offre',
};

export const botTimelineEntrySchema = z.object({
  at: z.string(),
  kind: z.enum(BOT_TIMELINE_KINDS),
  /** connected: the agent's version. */
  version: z.string().nullable(),
  /** disconnected: how long the connection lasted. */
  durationSeconds: z.number().int().nullable(),
  /** error, recovered: the game account; error: the bot's message. */
  account: z.string().nullable(),
  message: z.string().nullable(),
  /** action: the audit action (`AUDIT_ACTION_LABELS`) and who did it. */
  action: z.string().nullable(),
  actor: z.string().nullable(),
  /** payment, refund, package_ended: the order. */
  order: z
    .object({
      number: z.number().int(),
      packageName: z.string(),
      amountCents: z.number().int(),
      currency: z.string(),
      startsAt: z.string().nullable(),
      endsAt: z.string().nullable(),
    })
    .nullable(),
});
export type BotTimelineEntry = z.infer<typeof botTimelineEntrySchema>;

export const BOT_TIMELINE_DAYS = 30;

export const botTimelineAnswer = z.object({
  data: z.object({
    /** null: this account never bound a PC. */
    hwid: z.string().nullable(),
    owner: z.object({ id: z.string(), username: z.string() }).nullable(),
    /** Newest first, the last `BOT_TIMELINE_DAYS` days. */
    entries: z.array(botTimelineEntrySchema),
    /** Seconds online per hour (hours without any left out), the last `BOT_TIMELINE_DAYS` days. */
    uptime: z.array(hourlyPointSchema),
  }),
});
export type BotTimeline = z.infer<typeof botTimelineAnswer>['data'];
