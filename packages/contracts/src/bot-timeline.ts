import { z } from 'zod';
import { hourlyPointSchema } from './admin.ts';

/**
 * One PC's bot, in time (decision 901): what the bot did (binding, connections, accounts into and out
 * of `error`), what its owner bought, what staff or the owner did to it (from the audit trail).
 */
export const BOT_TIMELINE_KINDS = [
  'bound',
  'component_changed',
  'pc_changed',
  'pc_refused',
  'connected',
  'disconnected',
  'error',
  'recovered',
  'crashed',
  'action',
  'payment',
  'refund',
  'package_ended',
  'alert',
  'alert_cleared',
  'command',
] as const;
export type BotTimelineKind = (typeof BOT_TIMELINE_KINDS)[number];

export const BOT_TIMELINE_LABELS: Record<BotTimelineKind, string> = {
  bound: 'PC lié au compte',
  component_changed: 'Composant matériel changé',
  pc_changed: 'PC modifié : compté comme une déliaison',
  pc_refused: 'Connexion refusée : PC trop modifié depuis la liaison',
  connected: 'Bot connecté',
  disconnected: 'Bot déconnecté',
  error: 'Compte de jeu en erreur',
  recovered: 'Compte de jeu reparti',
  crashed: 'Plantage du bot signalé',
  action: 'Action sur le compte',
  payment: 'Offre payée',
  refund: 'Paiement remboursé',
  package_ended: 'Fin de l’offre',
  alert: 'Alerte envoyée',
  alert_cleared: 'Fin d’alerte envoyée',
  command: 'Commande à distance',
};

/** What an alert of the timeline was about (the bot's rules of decision 902). */
export const BOT_ALERT_RULE_LABELS: Record<string, string> = {
  bot_offline: 'Bot hors ligne',
  account_error: 'Compte de jeu en erreur',
};

export const botTimelineEntrySchema = z.object({
  /** Stable across refreshes (the list's keys). */
  id: z.string(),
  at: z.string(),
  kind: z.enum(BOT_TIMELINE_KINDS),
  /** connected: the agent's version. */
  version: z.string().nullable(),
  /** disconnected: how long the connection lasted. */
  durationSeconds: z.number().int().nullable(),
  /**
   * error, recovered: the game account; error: the bot's message; alert: its rule;
   * component_changed: the parts that changed, in French ("carte réseau"); pc_changed: the parts
   * changed since the PC was bound, its change counted as an unbind (decision 906); pc_refused:
   * when the next unbind is possible, then those parts ("Prochaine déliaison possible le …").
   */
  account: z.string().nullable(),
  message: z.string().nullable(),
  /**
   * action: the audit action (`AUDIT_ACTION_LABELS`) and who did it; alert: the rule; command: its
   * kind (`BOT_COMMAND_LABELS`), who sent it, and in `message` its state (`BOT_COMMAND_STATE_LABELS`)
   * with the agent's message after a colon.
   */
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

/** "45 s", "12 min", "2 h 05 min", "3 j 4 h": how long a connection lasted, to the useful unit. */
export function durationOf(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} j ${hours % 24} h`;
}
