import { z } from 'zod';
import { listQuery } from './admin.ts';
import { BOT_COMMAND_LABELS, BOT_COMMAND_STATE_LABELS } from './bot-commands.ts';
import { isoDateTime } from './dates.ts';
import { SIGNING_KEY_PURPOSE_LABELS } from './licensing.ts';
import { MAINTENANCE_SCOPE_LABELS } from './maintenance-windows.ts';
import { ORDER_STATUS_LABELS, PROVIDER_LABELS } from './orders.ts';
import { ROLLOUT_STATE_LABELS } from './release-rollouts.ts';
import { RELEASE_CHANNEL_LABELS } from './releases.ts';
import { SETTINGS_LABELS } from './settings.ts';
import { VOUCHER_KIND_LABELS } from './vouchers.ts';
import { ROUTE_KIND_LABELS, ROUTE_STATUS_LABELS } from './world.ts';

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorUsername: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const isoDate = isoDateTime();

/** Filters: actor (username or id), action (exact, or a prefix ending with `.`), target, period. */
export const auditQuery = listQuery.extend({
  actor: z.string().trim().max(64).optional(),
  action: z.string().trim().max(64).optional(),
  targetType: z.string().trim().max(32).optional(),
  target: z.string().trim().max(128).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

/** French labels of the audit actions the back office knows; others show as is. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'auth.register': 'Inscription',
  'auth.activate': 'Activation du compte',
  'auth.login': 'Connexion',
  'auth.login_failed': 'Connexion échouée',
  'auth.password_reset_requested': 'Demande de réinitialisation du mot de passe',
  'auth.password_reset': 'Mot de passe réinitialisé',
  'auth.password_changed': 'Mot de passe modifié',
  'auth.login_recovery_code': 'Connexion avec un code de secours',
  'auth.second_factor_failed': 'Code de double authentification refusé',
  'auth.sessions_revoked': 'Sessions fermées par leur titulaire',
  'two_factor.enabled': 'Double authentification activée',
  'two_factor.disabled': 'Double authentification désactivée',
  'two_factor.recovery_codes_renewed': 'Codes de secours renouvelés',
  'two_factor.reset': 'Double authentification réinitialisée par le staff',
  'user.hwid_bound': 'PC lié au compte',
  'user.hwid_reset': 'HWID réinitialisé',
  'user.hwid_component_changed': 'Composant matériel changé',
  'user.hwid_rebound': 'PC trop modifié : compté comme une déliaison',
  'user.bot_key_rotated': "Clé d'accès du bot renouvelée",
  'user.activate': 'Compte activé par le staff',
  'user.resend_activation': "E-mail d'activation renvoyé",
  'user.ban': 'Bannissement',
  'user.unban': 'Levée du bannissement',
  'user.roles': "Rôles de l'utilisateur modifiés",
  'user.discord': 'Identifiant Discord modifié',
  'user.sessions_revoke': 'Sessions révoquées',
  'grant.create': 'Permission accordée',
  'grant.create_self': 'Permission accordée à soi-même',
  'grant.update': "Date de fin d'une permission modifiée",
  'grant.delete': 'Permission retirée',
  'role.create': 'Rôle créé',
  'role.update': 'Rôle modifié',
  'role.delete': 'Rôle supprimé',
  'settings.update': 'Paramètres modifiés',
  'route.create': 'Itinéraire créé',
  'route.update': 'Itinéraire modifié',
  'route.delete': 'Itinéraire supprimé',
  'release.create': 'Version du bot créée',
  'release.publish': 'Version du bot publiée',
  'release.delete': 'Version du bot supprimée',
  'release.rollout': 'Déploiement d’une version modifié',
  'release.halt': 'Déploiement arrêté automatiquement',
  'release.yank': 'Version du bot retirée (les bots reviennent à la précédente)',
  'release.expire': 'Brouillon de version expiré (non publié en 24 h)',
  'package.create': 'Offre créée',
  'package.update': 'Offre modifiée',
  'package.retire': 'Offre retirée de la vente',
  'package.reorder': 'Ordre des offres modifié',
  'voucher.create': 'Bon de réduction créé',
  'voucher.update': 'Bon de réduction modifié',
  'voucher.delete': 'Bon de réduction supprimé',
  'whitelist.add': 'Compte de jeu ajouté à la liste blanche',
  'whitelist.remove': 'Compte de jeu retiré de la liste blanche',
  'payment.paid': 'Commande payée (permissions accordées)',
  'payment.refund': 'Paiement remboursé',
  'bot.kick': 'Bot déconnecté par le staff',
  'bot.command': 'Commande envoyée au bot',
  'bot.command_cancel': 'Commande au bot annulée',
  'alerts.fleet_update': 'Alertes de la flotte modifiées',
  'maintenance_window.create': 'Fenêtre de maintenance programmée',
  'maintenance_window.cancel': 'Fenêtre de maintenance annulée',
  'session.revoke': 'Session révoquée',
  'signing_key.rotate': 'Clé de signature des baux renouvelée',
  'signing_key.revoke': 'Clé de signature des baux révoquée',
  'signing_key.sign_set': 'Jeu de clés signé par la clé racine',
};

/** An action's French label; an action the dictionary does not know yet shows as written. */
export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action] ?? action;
}

/** Target types of the audit trail, with their French names (the filter's choices). */
export const AUDIT_TARGET_TYPE_LABELS: Record<string, string> = {
  user: 'Utilisateur',
  role: 'Rôle',
  settings: 'Paramètres',
  route: 'Itinéraire',
  order: 'Commande',
  package: 'Offre',
  voucher: 'Bon de réduction',
  whitelist: 'Liste blanche',
  bot: 'Bot',
  release: 'Version du bot',
  signing_key: 'Clé de signature',
  maintenance_window: 'Fenêtre de maintenance',
};

/** The action filter's groups ("user." selects every `user.*` action). */
export const AUDIT_ACTION_GROUP_LABELS: Record<string, string> = {
  auth: 'Connexions et comptes',
  two_factor: 'Double authentification',
  user: 'Utilisateurs',
  grant: 'Permissions accordées',
  role: 'Rôles',
  settings: 'Paramètres',
  route: 'Itinéraires',
  package: 'Offres',
  voucher: 'Bons de réduction',
  whitelist: 'Liste blanche',
  payment: 'Paiements',
  bot: 'Bots',
  release: 'Versions du bot',
  session: 'Sessions',
  alerts: 'Alertes de la flotte',
  maintenance_window: 'Fenêtres de maintenance',
  signing_key: 'Clés de signature des baux',
};

/**
 * French names of the fields the server writes in an entry's before/after (the services' `writeAudit`
 * calls: users, grants, roles, routes, packages, vouchers, payments, whitelist, settings, sessions).
 */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  ...SETTINGS_LABELS,
  valeur: 'Valeur',
  currentKid: 'Clé de signature en service',
  revokedKid: 'Clé de signature révoquée',
  id: 'Identifiant',
  name: 'Nom',
  description: 'Description',
  username: "Nom d'utilisateur",
  email: 'E-mail',
  referral: 'Parrain',
  user: 'Utilisateur',
  activated: 'Compte activé',
  banned: 'Banni',
  reason: 'Motif',
  revokedSessions: 'Sessions fermées',
  sessionIds: 'Sessions fermées',
  sessionId: 'Session',
  ip: 'Adresse IP',
  roles: 'Rôles',
  discordId: 'Identifiant Discord',
  hwid: 'HWID',
  enabled: 'Activée',
  secondFactor: 'Second facteur',
  online: 'En ligne',
  version: 'Version du bot',
  channel: 'Canal',
  fileName: 'Fichier',
  size: 'Taille',
  sha256: 'Empreinte SHA-256',
  downloads: 'Téléchargements',
  notes: 'Notes de version',
  publishedAt: 'Publiée le',
  accounts: 'Comptes de jeu',
  fleetErrors: 'Alerte : part des bots en erreur',
  fleetErrorPercent: 'Seuil de bots en erreur (%)',
  paymentWebhooks: 'Alerte : webhooks de paiement en échec',
  mailBacklog: 'Alerte : file des e-mails en retard',
  grantId: 'Attribution',
  permission: 'Permission',
  permissions: 'Permissions',
  source: 'Origine',
  kind: 'Type',
  payload: 'Paramètres',
  account: 'Compte de jeu',
  routeId: 'Itinéraire',
  state: 'État',
  percent: 'Part des bots (%)',
  rolloutPercent: 'Part des bots (%)',
  steps: 'Étapes',
  step: 'Étape',
  afterHours: 'Après (heures)',
  purpose: 'Usage de la clé',
  health: 'Santé comparée',
  baselineVersion: 'Version comparée',
  releaseBots: 'Bots de la nouvelle version',
  baselineBots: 'Bots comparés',
  figures: 'Mesures',
  status: 'Statut',
  stepCount: "Nombre d'étapes",
  priceCents: 'Prix',
  currency: 'Devise',
  durationDays: 'Durée',
  grants: 'Permissions données',
  whitelistSlots: 'Places en liste blanche',
  sortOrder: 'Position',
  active: 'Actif',
  code: 'Code',
  percentOff: 'Réduction en pourcentage',
  amountOffCents: 'Réduction',
  packageId: "Identifiant de l'offre",
  packageName: 'Offre',
  maxRedemptions: "Nombre maximal d'utilisations",
  perCustomerLimit: 'Utilisations par client',
  redemptionsCount: 'Utilisations',
  note: 'Note',
  number: 'Numéro de commande',
  provider: 'Moyen de paiement',
  providerRef: 'Référence chez le prestataire',
  discountCents: 'Remise',
  amountCents: 'Montant payé',
  voucherCode: 'Bon de réduction',
  checkoutUrl: 'Lien de paiement',
  revokedGrants: 'Permissions retirées',
  createdBy: 'Ajouté par',
  startsAt: 'Début',
  endsAt: 'Fin',
  expiresAt: 'Fin',
  paidAt: 'Payée le',
  refundedAt: 'Remboursée le',
  retiredAt: 'Retirée le',
  createdAt: 'Créé le',
  updatedAt: 'Modifié le',
  message: 'Message',
  scope: 'Alertes suspendues',
  cancelledAt: 'Annulée le',
};

/** French values of the enumerations found in audit details, by field. */
export const AUDIT_VALUE_LABELS: Record<string, Record<string, string>> = {
  status: { ...ORDER_STATUS_LABELS, ...ROUTE_STATUS_LABELS },
  kind: { ...ROUTE_KIND_LABELS, ...VOUCHER_KIND_LABELS, ...BOT_COMMAND_LABELS },
  state: { ...BOT_COMMAND_STATE_LABELS, ...ROLLOUT_STATE_LABELS },
  purpose: SIGNING_KEY_PURPOSE_LABELS,
  provider: PROVIDER_LABELS,
  source: { manual: 'Staff', order: 'Commande' },
  channel: RELEASE_CHANNEL_LABELS,
  scope: MAINTENANCE_SCOPE_LABELS,
};

/** A field's French name; a field not in the dictionary still reads as words ("newField" → "New field"). */
export function auditFieldLabel(key: string): string {
  const known = AUDIT_FIELD_LABELS[key];
  if (known) return known;
  const words = key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
