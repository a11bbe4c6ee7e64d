import type { AlertRule, NotificationKind } from '@bot/contracts';
import { APP_NAME, isFleetAlertRule } from '@bot/contracts';

export interface AlertMessage {
  kind: NotificationKind;
  rule: AlertRule;
  title: string;
  body: string;
}

interface Incident {
  rule: AlertRule;
  subject: string;
  since: Date;
}

/** The alert when a condition starts to hold (after the quiet period). */
export function alertMessage(
  incident: Incident,
  now: Date,
  condition: { message: string | null; text?: Omit<AlertMessage, 'rule'>; absorbed?: string[] },
): AlertMessage {
  if (condition.text) return { ...condition.text, rule: incident.rule };
  const { message, absorbed = [] } = condition;
  if (incident.rule === 'bot_offline') {
    const minutes = Math.max(1, Math.round((now.getTime() - incident.since.getTime()) / 60_000));
    // The PC's accounts in error are part of this incident (decision 907): no message of their own.
    const accounts =
      absorbed.length > 0
        ? ` Compte${absorbed.length > 1 ? 's' : ''} de jeu en erreur avant la coupure : ${absorbed.join(', ')} (suivi${absorbed.length > 1 ? 's' : ''} avec le bot).`
        : '';
    return {
      kind: 'alert',
      rule: incident.rule,
      title: 'Votre bot est hors ligne',
      body: `Votre bot ne s’est pas manifesté depuis ${minutes} min (déconnecté le ${frenchDate(incident.since)}).${accounts}`,
    };
  }
  return {
    kind: 'alert',
    rule: incident.rule,
    title: `Compte ${incident.subject} en erreur`,
    body: `Le compte de jeu ${incident.subject} est en erreur depuis le ${frenchDate(incident.since)}${message ? ` : ${message}` : '.'}`,
  };
}

/** A reminder while the incident stays open (decision 907): the alert as it stands now, marked so. */
export function reminderMessage(
  incident: Incident,
  now: Date,
  condition: { message: string | null; text?: Omit<AlertMessage, 'rule'> },
): AlertMessage {
  const alert = alertMessage(incident, now, condition);
  return {
    ...alert,
    title: `Rappel : ${alert.title}`,
    body: `${alert.body} Toujours en cours, depuis ${durationText(now.getTime() - incident.since.getTime())}.`,
  };
}

/** The fleet's recoveries (decision 903): what came back, after how long. */
const FLEET_RECOVERIES: Partial<Record<AlertRule, (lasted: string) => { title: string; body: string }>> = {
  fleet_errors: (lasted) => ({
    title: 'Flotte : la part des bots en erreur est repassée sous votre seuil',
    body: `Après ${lasted} au-dessus du seuil.`,
  }),
  payment_webhooks: (lasted) => ({
    title: 'Webhooks de paiement Stripe rétablis',
    body: `Les appels de Stripe sont de nouveau acceptés (après ${lasted} d’échecs).`,
  }),
  mail_backlog: (lasted) => ({
    title: 'File des e-mails résorbée',
    body: `Plus aucun e-mail n’attend depuis longtemps (après ${lasted} de retard).`,
  }),
  key_set_expiring: () => ({
    title: 'Jeu de clés des bots renouvelé',
    body: 'Un nouveau jeu de clés signé par la clé racine est en service : les bots peuvent de nouveau vérifier leurs baux sans échéance proche.',
  }),
  release_halted: (lasted) => ({
    title: 'Déploiement repris ou version retirée',
    body: `Le déploiement arrêté ne l’est plus (après ${lasted}) : repris par l’équipe, ou la version a été retirée.`,
  }),
};

/** The recovery when it stops holding. */
export function recoveryMessage(incident: Incident, now: Date): AlertMessage {
  const lasted = durationText(now.getTime() - incident.since.getTime());
  const fleet = FLEET_RECOVERIES[incident.rule];
  if (fleet) return { kind: 'recovery', rule: incident.rule, ...fleet(lasted) };
  if (incident.rule === 'bot_offline') {
    return {
      kind: 'recovery',
      rule: incident.rule,
      title: 'Votre bot est de nouveau en ligne',
      body: `Votre bot est de retour après ${lasted} hors ligne.`,
    };
  }
  return {
    kind: 'recovery',
    rule: incident.rule,
    title: `Compte ${incident.subject} reparti`,
    body: `Le compte de jeu ${incident.subject} n’est plus en erreur (après ${lasted}).`,
  };
}

/** The same message as an e-mail (French, plain text and HTML). */
export function alertMail(message: AlertMessage, publicUrl: string) {
  const link = `${publicUrl}/account/notifications`;
  const why = isFleetAlertRule(message.rule)
    ? 'Vous recevez cet e-mail parce que vous avez activé les alertes de la flotte.'
    : 'Vous recevez cet e-mail parce que vous avez activé les alertes de votre bot.';
  return {
    subject: `[${APP_NAME}] ${message.title}`,
    text: `${message.body}\n\nVos notifications : ${link}\n${why}`,
    html: `<p>${escapeHtml(message.body)}</p><p><a href="${link}">Voir mes notifications</a></p><p>${why}</p>`,
  };
}

/** The same message as a Discord embed (red for an alert, green for a recovery). */
export function discordPayload(message: AlertMessage, at: Date): Record<string, unknown> {
  return {
    username: APP_NAME,
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: message.title.slice(0, 256),
        description: message.body.slice(0, 4096),
        color: EMBED_COLORS[message.kind],
        timestamp: at.toISOString(),
      },
    ],
  };
}

const EMBED_COLORS: Record<NotificationKind, number> = {
  alert: 0xe74c3c,
  recovery: 0x2ecc71,
  info: 0x3498db,
};

function durationText(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** A time as mails and Discord print it, naming its zone (readers may live elsewhere). */
export function frenchDate(date: Date): string {
  return `${date.toLocaleString('fr-FR', { timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'short' })} (heure de Paris)`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
