import { detailed } from './error-details.ts';
import { countOf } from './french.ts';
import { RELEASE_DRAFTS_PER_STAFF, RELEASE_PART_BYTES, RELEASE_PART_LABEL } from './releases.ts';

/**
 * The error table's entries for the agent builds' publishing and downloads: a part of the one table
 * (`ERRORS` in errors.ts spreads them in place; docs/decisions/012-one-error-table.md), kept here so
 * that each file stays readable.
 */
export const RELEASE_ERRORS = {
  RELEASE_VERSION_TAKEN: { status: 409, message: 'Cette version existe déjà.' },
  RELEASE_NOT_FOUND: { status: 404, message: 'Version publiée introuvable.' },
  RELEASE_ALREADY_PUBLISHED: {
    status: 409,
    message: 'Cette version est déjà publiée : son fichier ne change plus.',
  },
  RELEASE_PART_INVALID: {
    status: 400,
    message: `Partie de fichier invalide : ${RELEASE_PART_LABEL} au plus, envoyée en application/octet-stream.`,
  },
  RELEASE_PART_TOO_LARGE: {
    status: 413,
    message: `Partie de fichier trop grande : ${RELEASE_PART_LABEL} (${RELEASE_PART_BYTES} octets) au plus.`,
  },
  RELEASE_PART_BEYOND_END: detailed<{ parts: number }>(409, ({ parts }) => {
    const numbered = parts === 1 ? 'numérotée 0' : `numérotées de 0 à ${parts - 1}`;
    return `Cette partie dépasse la fin du fichier annoncé : il compte ${countOf(parts, 'partie', 'parties')}, ${numbered}.`;
  }),
  RELEASE_DRAFTS_LIMIT: {
    status: 409,
    message: `Vous avez déjà ${RELEASE_DRAFTS_PER_STAFF} brouillons de version en cours : publiez-en ou retirez-en un avant d’en commencer un autre.`,
  },
  RELEASE_UPLOAD_INCOMPLETE: {
    status: 409,
    message: "Le fichier n'est pas complet : envoyez toutes ses parties avant de publier.",
  },
  RELEASE_YANKED: {
    status: 409,
    message: 'Cette version a été retirée : publiez une version corrigée plutôt que de la redéployer.',
  },
  RELEASE_CHECKSUM_MISMATCH: {
    status: 422,
    message: "L'empreinte SHA-256 ne correspond pas au fichier reçu. Envoyez le fichier à nouveau.",
  },
  RELEASE_WITHDRAWN: {
    status: 410,
    message:
      'Cette version n’est plus proposée (retirée, ou son déploiement est arrêté). Installez celle que votre espace propose.',
  },
  RELEASE_LINK_INVALID: {
    status: 403,
    message: 'Lien de téléchargement invalide ou expiré. Demandez-en un nouveau depuis votre espace.',
  },
} as const;
