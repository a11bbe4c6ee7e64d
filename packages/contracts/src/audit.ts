import { z } from 'zod';
import { listQuery } from './admin.ts';

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

const isoDate = z.iso.datetime({ offset: true, message: 'Date invalide.' });

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
  'two_factor.enabled': 'Double authentification activée',
  'two_factor.disabled': 'Double authentification désactivée',
  'two_factor.recovery_codes_renewed': 'Codes de secours renouvelés',
  'two_factor.reset': 'Double authentification réinitialisée par le staff',
  'user.hwid_reset': 'HWID réinitialisé',
  'user.bot_key_rotated': "Clé d'accès du bot renouvelée",
  'user.activate': 'Compte activé par le staff',
  'user.resend_activation': "E-mail d'activation renvoyé",
  'user.ban': 'Bannissement',
  'user.unban': 'Levée du bannissement',
  'user.roles': "Rôles de l'utilisateur modifiés",
  'user.discord': 'Identifiant Discord modifié',
  'user.sessions_revoke': 'Sessions révoquées',
  'grant.create': 'Permission accordée',
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
  'release.delete': 'Version du bot retirée',
  'package.create': 'Offre créée',
  'package.update': 'Offre modifiée',
  'package.retire': 'Offre retirée de la vente',
  'package.reorder': 'Ordre des offres modifié',
  'voucher.create': 'Bon de réduction créé',
  'voucher.update': 'Bon de réduction modifié',
  'voucher.delete': 'Bon de réduction supprimé',
  'whitelist.add': 'Compte de jeu ajouté à la liste blanche',
  'whitelist.remove': 'Compte de jeu retiré de la liste blanche',
  'payment.refund': 'Paiement remboursé',
  'bot.kick': 'Bot déconnecté par le staff',
  'session.revoke': 'Session révoquée',
};

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
};
