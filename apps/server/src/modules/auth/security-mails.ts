import { describeUserAgent } from '@bot/contracts';
import type { TxContext } from '../../context.ts';
import { buildLinkMail } from '../../core/mailer.ts';
import { queueMail } from '../mail/index.ts';

/** What a security mail tells its owner; each goes through the mail outbox like every mail. */
export type SecurityNotice =
  | { kind: 'new_device'; userAgent: string | null; ip: string | null }
  | { kind: 'password_changed' }
  | { kind: 'two_factor_enabled' }
  | { kind: 'two_factor_disabled' }
  | { kind: 'two_factor_reset' }
  | { kind: 'second_factor_locked'; ip: string | null; waitMinutes: number };

function describe(notice: SecurityNotice): { subject: string; body: string } {
  switch (notice.kind) {
    case 'new_device':
      return {
        subject: 'Nouvelle connexion à votre compte',
        body: `Une connexion à votre compte vient d’avoir lieu depuis un appareil que nous ne connaissions pas : ${describeUserAgent(notice.userAgent)}, adresse ${notice.ip ?? 'inconnue'}.`,
      };
    case 'password_changed':
      return {
        subject: 'Votre mot de passe a été changé',
        body: 'Le mot de passe de votre compte vient d’être changé. Vos autres sessions ont été fermées.',
      };
    case 'two_factor_enabled':
      return {
        subject: 'Double authentification activée',
        body: 'La double authentification vient d’être activée sur votre compte : chaque connexion demandera désormais un code de l’application choisie à ce moment-là. Si ce n’était pas vous, l’équipe peut la réinitialiser après avoir vérifié votre identité.',
      };
    case 'two_factor_disabled':
      return {
        subject: 'Double authentification désactivée',
        body: 'La double authentification vient d’être désactivée sur votre compte : le mot de passe suffit de nouveau pour vous connecter.',
      };
    case 'two_factor_reset':
      return {
        subject: 'Double authentification réinitialisée',
        body: 'L’équipe a réinitialisé la double authentification de votre compte à votre demande ; vos sessions ont été fermées.',
      };
    case 'second_factor_locked':
      return {
        subject: 'Codes de vérification refusés sur votre compte',
        body: `Trop de codes de vérification faux ont été saisis pour votre compte depuis l’adresse ${notice.ip ?? 'inconnue'} : elle doit attendre ${notice.waitMinutes} minutes. Votre mot de passe est connu de la personne qui les a saisis si ce n’était pas vous.`,
      };
  }
}

/**
 * Tells the owner of an account that something changed its security, with what to do if it was not
 * them: choose a new password (it closes every session) and check their sessions on /account.
 */
export async function mailSecurityNotice(
  ctx: TxContext,
  user: { email: string; username: string },
  notice: SecurityNotice,
): Promise<void> {
  const { subject, body } = describe(notice);
  await queueMail(
    ctx,
    buildLinkMail({
      to: user.email,
      subject,
      greeting: `Bonjour ${user.username},`,
      body: `${body} Si ce n’était pas vous, sécurisez votre compte : choisissez un nouveau mot de passe (toutes les sessions sont fermées), puis vérifiez vos sessions sur ${ctx.config.publicUrl}/account.`,
      action: 'Sécuriser mon compte',
      link: `${ctx.config.publicUrl}/forgot-password`,
      footer: 'Si c’était vous, vous n’avez rien à faire.',
    }),
  );
}
