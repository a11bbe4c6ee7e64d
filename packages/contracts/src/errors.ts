import { RELEASE_DRAFTS_PER_STAFF, RELEASE_PART_BYTES, RELEASE_PART_LABEL } from './releases.ts';

/**
 * Every machine code the API and the sockets may answer, with its HTTP status and the French
 * message shown to people. One table: the server maps codes to statuses here, the web app shows
 * `error` as is.
 */
export const ERRORS = {
  VALIDATION_ERROR: { status: 400, message: 'Les données envoyées sont invalides.' },
  INVALID_JSON: { status: 400, message: "Le corps de la requête n'est pas un JSON valide." },
  JSON_TOO_DEEP: {
    status: 400,
    message: 'Le corps de la requête est trop imbriqué (64 niveaux au plus).',
  },
  MALFORMED_REQUEST: { status: 400, message: 'La requête HTTP est mal formée.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Les en-têtes de la requête sont trop volumineux.' },
  REQUEST_TIMEOUT: { status: 408, message: 'La requête a mis trop de temps à arriver.' },
  WEBSOCKET_REQUIRED: {
    status: 400,
    message: 'Cette adresse n’accepte que les connexions WebSocket (Socket.IO, transport websocket).',
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Ce type de contenu n'est pas accepté." },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'La requête est trop volumineuse.' },
  UNAUTHORIZED: { status: 401, message: 'Session absente ou expirée. Veuillez vous reconnecter.' },
  FORBIDDEN: { status: 403, message: "Vous n'avez pas la permission d'effectuer cette action." },
  NOT_FOUND: { status: 404, message: 'Ressource introuvable.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Page not found' },
  CONFLICT: { status: 409, message: 'Cette action entre en conflit avec les données existantes.' },
  RATE_LIMITED: { status: 429, message: 'Trop de tentatives. Veuillez réessayer plus tard.' },
  INTERNAL: { status: 500, message: 'Une erreur interne est survenue.' },
  MAINTENANCE: { status: 503, message: 'Le site est en maintenance. Veuillez réessayer plus tard.' },
  DISK_FULL: {
    status: 503,
    message: 'l’enregistrement est refusé jusqu’à ce que de la place soit libérée. Réessayez plus tard.',
  },
  IDEMPOTENCY_KEY_INVALID: {
    status: 400,
    message: 'En-tête Idempotency-Key invalide : de 1 à 255 caractères ASCII visibles.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    message: 'Une requête avec la même clé d’idempotence est encore en cours. Réessayez dans un instant.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'Cette clé d’idempotence a déjà servi pour une autre requête.',
  },
  IDEMPOTENCY_NOT_ACCEPTED: {
    status: 400,
    message:
      'Cette action renvoie un secret qui n’est jamais conservé : envoyez-la sans en-tête Idempotency-Key.',
  },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Cette méthode n’est pas acceptée pour cette adresse.' },
  OVERLOADED: {
    status: 503,
    message:
      'Ce serveur est surchargé : il ne prend plus de nouveaux bots pour le moment. Réessayez dans quelques secondes.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'Le service est momentanément indisponible. Veuillez réessayer dans quelques instants.',
  },

  INVALID_CREDENTIALS: { status: 401, message: "Nom d'utilisateur ou mot de passe incorrect." },
  ACCOUNT_NOT_ACTIVATED: {
    status: 403,
    message: "Votre compte n'est pas encore activé. Consultez l'e-mail d'activation.",
  },
  ACCOUNT_BANNED: { status: 403, message: 'Votre compte est suspendu.' },
  ALREADY_ACTIVATED: { status: 409, message: 'Ce compte est déjà activé.' },
  USERNAME_TAKEN: { status: 409, message: "Ce nom d'utilisateur est déjà pris." },
  REFERRAL_UNKNOWN: {
    status: 400,
    message: "Ce parrain n'existe pas. Vérifiez son nom d'utilisateur ou laissez le champ vide.",
  },
  EMAIL_TAKEN: { status: 409, message: 'Cette adresse e-mail est déjà utilisée.' },
  REGISTRATION_CLOSED: { status: 403, message: 'Les inscriptions sont actuellement fermées.' },
  WEAK_PASSWORD: {
    status: 400,
    message: 'Ce mot de passe est trop courant ou trop facile à deviner. Choisissez-en un autre.',
  },
  INVALID_TOKEN: { status: 400, message: 'Ce lien est invalide ou a expiré.' },
  WRONG_PASSWORD: { status: 400, message: 'Le mot de passe actuel est incorrect.' },
  TWO_FACTOR_CODE_INVALID: {
    status: 400,
    message: 'Code de vérification incorrect ou expiré. Saisissez le code affiché par votre application.',
  },
  TWO_FACTOR_ENROLLMENT_REQUIRED: {
    status: 403,
    message:
      'La double authentification est obligatoire pour l’administration. Activez-la depuis votre espace (Mon compte).',
  },
  TWO_FACTOR_ALREADY_ENABLED: { status: 409, message: 'La double authentification est déjà activée.' },
  TWO_FACTOR_NOT_ENABLED: { status: 409, message: 'La double authentification n’est pas activée.' },
  TWO_FACTOR_SETUP_MISSING: {
    status: 409,
    message: 'Aucune activation en cours : générez d’abord un nouveau QR code.',
  },

  HWID_NOT_BOUND: { status: 409, message: "Aucun PC n'est lié à votre compte." },
  HWID_RESET_COOLDOWN: {
    status: 429,
    message: 'Vous avez déjà délié votre PC récemment. Réessayez plus tard.',
  },
  HWID_RESET_LIMIT: {
    status: 429,
    message: 'Vous avez atteint le nombre de déliaisons autorisées sur 30 jours. Contactez le support.',
  },
  HWID_MISMATCH: {
    status: 403,
    message: 'Votre compte est lié à un autre PC. Déliez-le depuis votre espace avant de changer de PC.',
  },
  HWID_TAKEN: { status: 409, message: 'Ce PC est déjà lié à un autre compte.' },
  HWID_RELEASED: {
    status: 403,
    message: 'Ce PC vient d’être délié de votre compte : lancez le bot sur votre nouveau PC.',
  },
  HWID_CHANGE_LIMIT: {
    status: 403,
    message:
      'Ce PC a trop changé depuis sa liaison : cela compte comme une déliaison, et il ne vous en reste aucune pour le moment. Contactez le support.',
  },
  BOT_KEY_INVALID: { status: 401, message: "Clé d'accès du bot invalide." },
  BOT_PERMISSION_REQUIRED: {
    status: 403,
    message: "Votre compte n'a aucune offre active donnant accès au bot.",
  },
  BOT_VERSION_OUTDATED: {
    status: 426,
    message: 'Cette version du bot est trop ancienne. Mettez le bot à jour.',
  },
  BOT_SESSION_INVALID: { status: 401, message: 'Session du bot invalide ou expirée.' },
  LEASE_KEY_REVOKED: {
    status: 401,
    message: 'La clé qui a signé le bail de licence a été révoquée : le bail doit être renouvelé.',
  },

  PACKAGE_NOT_AVAILABLE: { status: 409, message: "Cette offre n'est plus disponible." },
  PACKAGE_REORDER_MISMATCH: {
    status: 400,
    message: 'Le nouvel ordre doit contenir chaque offre une seule fois.',
  },
  ORDER_NOT_PENDING: { status: 409, message: "Cette commande n'est plus en attente de paiement." },
  RECEIPT_UNAVAILABLE: { status: 409, message: 'Aucun reçu : cette commande n’a pas été payée.' },
  ORDER_NOT_REFUNDABLE: { status: 409, message: 'Seule une commande payée peut être remboursée.' },
  PAYMENT_PROVIDER_UNAVAILABLE: {
    status: 503,
    message: 'Le paiement est momentanément indisponible. Réessayez plus tard.',
  },
  SANDBOX_DISABLED: { status: 404, message: "Le mode de paiement de test n'est pas actif." },
  WEBHOOK_SIGNATURE_INVALID: { status: 400, message: 'Signature du webhook invalide.' },
  VOUCHER_INVALID: { status: 404, message: "Ce code promo n'existe pas ou n'est plus actif." },
  VOUCHER_NOT_STARTED: { status: 409, message: "Ce code promo n'est pas encore valable." },
  VOUCHER_EXPIRED: { status: 409, message: 'Ce code promo a expiré.' },
  VOUCHER_EXHAUSTED: { status: 409, message: 'Ce code promo a atteint son nombre maximal d’utilisations.' },
  VOUCHER_CUSTOMER_LIMIT: { status: 409, message: 'Vous avez déjà utilisé ce code promo.' },
  VOUCHER_NOT_APPLICABLE: { status: 409, message: 'Ce code promo ne s’applique pas à cette offre.' },
  VOUCHER_CODE_TAKEN: { status: 409, message: 'Ce code promo existe déjà.' },
  WHITELIST_NAME_TAKEN: { status: 409, message: 'Ce compte de jeu est déjà sur une liste blanche.' },
  WHITELIST_FULL: {
    status: 409,
    message: 'Toutes vos places de liste blanche sont utilisées. Achetez une offre pour en obtenir plus.',
  },

  ROLE_NAME_TAKEN: { status: 409, message: 'Un rôle porte déjà ce nom.' },
  ROLE_IN_USE: {
    status: 409,
    message: 'Ce rôle est encore attribué à des utilisateurs. Retirez-le-leur avant de le supprimer.',
  },
  UNKNOWN_ROLE: { status: 400, message: "Un des rôles choisis n'existe pas." },
  BAN_FORBIDDEN: { status: 403, message: 'Vous ne pouvez pas bannir ce compte.' },
  ALREADY_BANNED: { status: 409, message: 'Ce compte est déjà banni.' },
  NOT_BANNED: { status: 409, message: "Ce compte n'est pas banni." },
  UNKNOWN_MAP: { status: 400, message: "Une des étapes désigne une carte qui n'existe pas." },

  AUTH_TIMEOUT: { status: 401, message: 'Authentification attendue dans les délais.' },
  SOCKET_FLOOD: { status: 429, message: 'Trop de messages envoyés. Connexion fermée.' },
  BOT_REPLACED: { status: 409, message: 'Une connexion plus récente de ce PC a remplacé celle-ci.' },
  BOT_KICKED: { status: 409, message: 'Le bot a été déconnecté par un administrateur.' },
  BOT_COMMAND_LIMIT: {
    status: 429,
    message: 'Trop de commandes en attente pour ce bot. Attendez qu’il les ait reçues.',
  },
  BOT_COMMAND_NOT_CANCELLABLE: {
    status: 409,
    message: 'Cette commande a déjà été transmise au bot : elle ne peut plus être annulée.',
  },

  RELEASE_VERSION_TAKEN: { status: 409, message: 'Cette version existe déjà.' },
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
  RELEASE_PART_BEYOND_END: {
    status: 409,
    message: 'Cette partie dépasse la fin du fichier annoncé à la création du brouillon.',
  },
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
  RANGE_NOT_SATISFIABLE: { status: 416, message: "Plage d'octets impossible pour ce fichier." },

  DISCORD_WEBHOOK_INVALID: {
    status: 400,
    message:
      'Adresse de webhook Discord invalide : collez l’adresse https://discord.com/api/webhooks/… donnée par Discord.',
  },
  FLEET_ALERT_FORBIDDEN: {
    status: 403,
    message: 'Vos permissions ne vous ouvrent pas cette alerte de la flotte.',
  },
  DISCORD_WEBHOOK_REQUIRED: {
    status: 400,
    message: 'Indiquez l’adresse du webhook Discord pour recevoir les alertes sur Discord.',
  },
  MAINTENANCE_WINDOW_INVALID: {
    status: 400,
    message: 'Fenêtre de maintenance invalide : la fin doit suivre le début et ne pas être passée.',
  },
  MAINTENANCE_WINDOW_TOO_LONG: {
    status: 400,
    message: 'Une fenêtre de maintenance dure au plus 7 jours.',
  },
  MAINTENANCE_WINDOW_OVER: {
    status: 409,
    message: 'Cette fenêtre de maintenance est déjà terminée ou annulée.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Body of every error answer, HTTP or socket (`auth_error`). */
export interface ErrorBody {
  error: string;
  code: ErrorCode | string;
}

/** docs/specification.md §7: fallback messages the web app shows when the server gave none. */
export const FALLBACK_MESSAGES = {
  login: 'Une erreur inconnue est survenue.',
  register: 'Un problème est survenu durant votre inscription.',
  activate: 'Activation échouée.',
  resend: 'Ré-envoi de confirmation échoué.',
  info: 'Impossible de get les informations',
  permissions: 'Impossible de récupérer les permissions.',
  checkPermission: 'Erreur lors de la vérification des permissions.',
} as const;
