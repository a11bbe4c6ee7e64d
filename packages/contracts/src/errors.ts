import { detailed, parisTime, permissionLabels, type ValidationIssue } from './error-details.ts';
import { countOf } from './french.ts';
import { RELEASE_ERRORS } from './release-errors.ts';

/**
 * Every machine code the API and the sockets may answer, with its HTTP status and the French
 * message shown to people. One table: the server answers `errorMessage(code, details)` and the web
 * app shows the same text for a code it knows. No message is written anywhere else
 * (docs/decisions/012-one-error-table.md): what varies (a date, a limit, a name) travels in the
 * answer's `details`, typed by the entry, and the message quotes it.
 */
export const ERRORS = {
  VALIDATION_ERROR: detailed<readonly ValidationIssue[] | undefined>(400, (issues) => {
    const first = issues?.[0];
    const where = first?.path ? `${first.path} : ` : '';
    return first
      ? `Les données envoyées sont invalides. ${where}${first.message}`
      : 'Les données envoyées sont invalides.';
  }),
  NUL_CHARACTER: { status: 400, message: 'Le caractère nul (U+0000) n’est pas accepté.' },
  UNKNOWN_QUERY_PARAMETER: detailed<{ names: string[] }>(
    400,
    ({ names }) => `Paramètre de requête inconnu : ${names.join(', ')}.`,
  ),
  SORT_UNKNOWN: detailed<{ field: string; allowed: string[] }>(
    400,
    ({ field, allowed }) => `Tri impossible sur « ${field} ». Champs possibles : ${allowed.join(', ')}.`,
  ),
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
  OUTRANKED: detailed<{ missing: string[] }>(
    403,
    ({ missing }) => `Ce compte a des permissions que vous n'avez pas : ${permissionLabels(missing)}.`,
  ),
  ADMINISTRATOR_ONLY: {
    status: 403,
    message: 'Seul un administrateur peut modifier ou consulter un compte administrateur.',
  },
  PERMISSION_NOT_HELD: detailed<{ missing: string[] }>(
    403,
    ({ missing }) =>
      `Vous ne pouvez pas accorder ou retirer une permission que vous n'avez pas : ${permissionLabels(missing)}.`,
  ),
  NOT_FOUND: { status: 404, message: 'Ressource introuvable.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Page not found' },
  CONFLICT: { status: 409, message: 'Cette action entre en conflit avec les données existantes.' },
  /** A socket message past its rate says its limit and wait (docs/protocol.md, "Acknowledgements"); HTTP says `Retry-After`. */
  RATE_LIMITED: detailed<{ limitPerSecond: number; retryAfterMs: number } | undefined>(429, (limit) =>
    limit
      ? `Trop de messages : ${limit.limitPerSecond} par seconde au plus. Réessayez dans ${limit.retryAfterMs} ms.`
      : 'Trop de tentatives. Veuillez réessayer plus tard.',
  ),
  INTERNAL: { status: 500, message: 'Une erreur interne est survenue.' },
  AUDIT_OUTSIDE_TRANSACTION: {
    status: 500,
    message: 'Une erreur interne est survenue : une modification a écrit son audit hors de sa transaction.',
  },
  MAINTENANCE: detailed<{ notice: string } | undefined>(
    503,
    (custom) => custom?.notice || 'Le site est en maintenance. Veuillez réessayer plus tard.',
  ),
  DISK_FULL: detailed<{ disk: string }>(
    503,
    ({ disk }) =>
      `Le disque ${disk} est plein : l’enregistrement est refusé jusqu’à ce que de la place soit libérée. Réessayez plus tard.`,
  ),
  IDEMPOTENCY_KEY_INVALID: {
    status: 400,
    message: 'En-tête Idempotency-Key invalide : de 1 à 255 caractères ASCII visibles.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    message: 'Une requête avec la même clé d’idempotence est encore en cours. Réessayez dans un instant.',
  },
  IDEMPOTENCY_OUTCOME_UNKNOWN: {
    status: 409,
    message:
      'La requête envoyée avec cette clé d’idempotence a été interrompue avant sa réponse : elle a pu aboutir. Vérifiez son résultat, puis recommencez avec une nouvelle clé si besoin.',
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
  SERVICE_UNAVAILABLE: detailed<{ failing: string[] } | undefined>(503, (probe) => {
    const failing = probe ? ` En échec : ${probe.failing.join(', ')}.` : '';
    return `Le service est momentanément indisponible. Veuillez réessayer dans quelques instants.${failing}`;
  }),

  INVALID_CREDENTIALS: { status: 401, message: "Nom d'utilisateur ou mot de passe incorrect." },
  ACCOUNT_NOT_ACTIVATED: {
    status: 403,
    message: "Votre compte n'est pas encore activé. Consultez l'e-mail d'activation.",
  },
  ACCOUNT_BANNED: detailed<{ reason: string } | undefined>(403, (ban) =>
    ban?.reason ? `Votre compte est suspendu : ${ban.reason}` : 'Votre compte est suspendu.',
  ),
  ACTIVATION_REFUSED: {
    status: 400,
    message:
      'Activation échouée : ce lien est invalide, expiré ou déjà utilisé. Si votre compte est déjà activé, connectez-vous.',
  },
  ALREADY_ACTIVATED: { status: 409, message: 'Ce compte est déjà activé.' },
  USERNAME_TAKEN: detailed<{ field: string }>(409, () => "Ce nom d'utilisateur est déjà pris."),
  REFERRAL_UNKNOWN: detailed<{ field: string }>(
    400,
    () => "Ce parrain n'existe pas. Vérifiez son nom d'utilisateur ou laissez le champ vide.",
  ),
  USER_NOT_FOUND: { status: 404, message: 'Utilisateur introuvable.' },
  SESSION_NOT_FOUND: { status: 404, message: 'Session introuvable ou déjà terminée.' },
  EMAIL_TAKEN: { status: 409, message: 'Cette adresse e-mail est déjà utilisée.' },
  REGISTRATION_CLOSED: { status: 403, message: 'Les inscriptions sont actuellement fermées.' },
  WEAK_PASSWORD: detailed<{ score: number; suggestions: string[] }>(
    400,
    () => 'Ce mot de passe est trop courant ou trop facile à deviner. Choisissez-en un autre.',
  ),
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
  TWO_FACTOR_REQUIRED_FIRST: {
    status: 409,
    message:
      'Activez d’abord la double authentification sur votre propre compte : sans elle, vous perdriez l’accès à l’administration.',
  },

  HWID_NOT_BOUND: { status: 409, message: "Aucun PC n'est lié à votre compte." },
  HWID_RESET_COOLDOWN: detailed<{ nextResetAt: string }>(
    429,
    ({ nextResetAt }) =>
      `Vous avez déjà délié votre PC récemment. Prochaine déliaison possible le ${parisTime(nextResetAt)} (heure de Paris).`,
  ),
  HWID_RESET_LIMIT: detailed<{ nextResetAt: string; limit: number }>(
    429,
    ({ nextResetAt, limit }) =>
      `Vous avez déjà délié votre PC ${limit} fois sur 30 jours, le maximum. Prochaine déliaison possible le ${parisTime(nextResetAt)} (heure de Paris), ou contactez le support.`,
  ),
  HWID_MISMATCH: {
    status: 403,
    message: 'Votre compte est lié à un autre PC. Déliez-le depuis votre espace avant de changer de PC.',
  },
  HWID_TAKEN: { status: 409, message: 'Ce PC est déjà lié à un autre compte.' },
  HWID_RELEASED: detailed<{ releasedUntil: string }>(
    403,
    ({ releasedUntil }) =>
      `Ce PC a été délié de votre compte : lancez le bot sur votre nouveau PC. Ce PC-ci ne pourra être relié à nouveau qu’à partir du ${parisTime(releasedUntil)} (heure de Paris).`,
  ),
  HWID_CHANGE_LIMIT: detailed<{
    nextResetAt: string;
    limit: number;
    remaining: number;
    windowDays: number;
    changed: string;
  }>(403, ({ nextResetAt, limit, remaining, windowDays }) => {
    const used = limit === 1 ? 'votre déliaison' : `vos ${limit} déliaisons`;
    const why =
      remaining === 0
        ? `vous avez déjà utilisé ${used} sur ${windowDays} jours`
        : 'vous avez délié votre PC trop récemment';
    return `Ce PC a trop changé depuis sa liaison : cela compte comme une déliaison, et ${why}. Prochaine déliaison possible le ${parisTime(nextResetAt)} (heure de Paris), ou contactez le support.`;
  }),
  PC_OWNER_NOT_FOUND: { status: 404, message: 'Aucun compte n’est lié à ce PC.' },
  BOT_NOT_CONNECTED: { status: 404, message: 'Ce bot n’est pas connecté.' },
  BOT_KEY_INVALID: { status: 401, message: "Clé d'accès du bot invalide." },
  BOT_PERMISSION_REQUIRED: {
    status: 403,
    message: "Votre compte n'a aucune offre active donnant accès au bot.",
  },
  BOT_VERSION_OUTDATED: detailed<{ minBotVersion: string; pageUrl: string }>(
    426,
    ({ minBotVersion, pageUrl }) =>
      `Cette version du bot est trop ancienne (minimum ${minBotVersion}). Téléchargez la dernière version : ${pageUrl}`,
  ),
  BOT_SESSION_INVALID: { status: 401, message: 'Session du bot invalide ou expirée.' },
  LEASE_KEY_REVOKED: {
    status: 401,
    message: 'La clé qui a signé le bail de licence a été révoquée : le bail doit être renouvelé.',
  },

  PACKAGE_NOT_AVAILABLE: { status: 409, message: "Cette offre n'est plus disponible." },
  PACKAGE_NOT_FOUND: { status: 404, message: 'Offre introuvable.' },
  PACKAGE_RETIRED: {
    status: 409,
    message: "Une offre retirée ne peut pas être active : remettez-la d'abord en vente.",
  },
  PACKAGE_REORDER_MISMATCH: {
    status: 400,
    message: 'Le nouvel ordre doit contenir chaque offre une seule fois.',
  },
  ORDER_NOT_FOUND: { status: 404, message: 'Commande introuvable.' },
  PAYMENT_NOT_FOUND: { status: 404, message: 'Paiement introuvable.' },
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
  VOUCHER_NOT_FOUND: { status: 404, message: 'Bon introuvable.' },
  VOUCHER_PACKAGE_UNKNOWN: { status: 400, message: "L'offre choisie n'existe pas." },
  VOUCHER_USED: {
    status: 409,
    message: 'Ce bon a déjà été utilisé : désactivez-le plutôt que de le supprimer.',
  },
  WHITELIST_ENTRY_NOT_FOUND: { status: 404, message: 'Ce compte n’est pas (ou plus) sur la liste blanche.' },
  WHITELIST_ACCOUNT_UNKNOWN: detailed<{ account: string }>(
    400,
    ({ account }) => `Le compte de jeu ${account} n’est pas sur la liste blanche de ce bot.`,
  ),
  WHITELIST_NAME_TAKEN: { status: 409, message: 'Ce compte de jeu est déjà sur une liste blanche.' },
  WHITELIST_FULL: {
    status: 409,
    message: 'Toutes vos places de liste blanche sont utilisées. Achetez une offre pour en obtenir plus.',
  },

  ROLE_NAME_TAKEN: { status: 409, message: 'Un rôle porte déjà ce nom.' },
  ROLE_NOT_FOUND: { status: 404, message: 'Rôle introuvable.' },
  ROLE_IN_USE: detailed<{ memberCount: number }>(
    409,
    ({ memberCount }) =>
      `Ce rôle est encore attribué à ${countOf(memberCount, 'utilisateur', 'utilisateurs')}. Retirez-le-leur avant de le supprimer.`,
  ),
  UNKNOWN_ROLE: { status: 400, message: "Un des rôles choisis n'existe pas." },
  PERMISSION_GRANT_NOT_FOUND: { status: 404, message: 'Permission accordée introuvable.' },
  BAN_SELF: { status: 403, message: 'Vous ne pouvez pas vous bannir vous-même.' },
  BAN_ADMINISTRATOR: { status: 403, message: 'Un administrateur ne peut pas être banni.' },
  ALREADY_BANNED: { status: 409, message: 'Ce compte est déjà banni.' },
  NOT_BANNED: { status: 409, message: "Ce compte n'est pas banni." },
  USER_BANNED: {
    status: 409,
    message: 'Ce compte est banni : levez d’abord son bannissement pour lui renvoyer l’e-mail d’activation.',
  },
  UNKNOWN_MAP: detailed<{ step: number }>(
    400,
    ({ step }) => `L'étape ${step + 1} désigne une carte qui n'existe pas.`,
  ),
  ITINERARY_NOT_FOUND: { status: 404, message: 'Itinéraire introuvable.' },
  ITINERARY_UNKNOWN: { status: 400, message: 'Itinéraire inconnu ou non publié.' },
  ITINERARY_NOT_IN_PACKAGE: {
    status: 400,
    message: 'Cet itinéraire est d’un type que l’offre du propriétaire n’inclut pas.',
  },

  AUTH_TIMEOUT: { status: 401, message: 'Authentification attendue dans les délais.' },
  SOCKET_FLOOD: { status: 429, message: 'Trop de messages envoyés. Connexion fermée.' },
  BOT_REPLACED: { status: 409, message: 'Une connexion plus récente de ce PC a remplacé celle-ci.' },
  BOT_KICKED: { status: 409, message: 'Le bot a été déconnecté par un administrateur.' },
  BOT_COMMAND_LIMIT: {
    status: 429,
    message: 'Trop de commandes en attente pour ce bot. Attendez qu’il les ait reçues.',
  },
  BOT_COMMAND_RATE_LIMITED: {
    status: 429,
    message: 'Trop de commandes envoyées en une minute : patientez un instant avant d’en envoyer une autre.',
  },
  BOT_COMMAND_NOT_FOUND: { status: 404, message: 'Commande introuvable.' },
  BOT_COMMAND_STAFF_ONLY: {
    status: 403,
    message: 'Commande envoyée par l’équipe : seule l’équipe peut l’annuler.',
  },
  BOT_COMMAND_NOT_CANCELLABLE: {
    status: 409,
    message: 'Cette commande a déjà été transmise au bot : elle ne peut plus être annulée.',
  },
  BOT_COMMAND_NOT_PENDING: { status: 409, message: 'Commande inconnue, expirée ou déjà traitée à ce stade.' },
  BOT_LOG_NOT_REQUESTED: { status: 409, message: 'Journal non demandé : attendez bot_log_start.' },
  /**
   * Some lines of a `bot_log` refused alone, the others kept (docs/protocol.md, "The log"): how many
   * of each, and the first refused fields (at most five: an answer stays small).
   */
  BOT_LOG_LINES_REFUSED: detailed<{
    refused: readonly ValidationIssue[];
    refusedLines: number;
    kept: number;
  }>(
    400,
    ({ refused, refusedLines, kept }) =>
      `Journal : ${countOf(refusedLines, 'ligne refusée', 'lignes refusées')}, ${countOf(kept, 'gardée', 'gardées')}. ${refused[0]?.path} : ${refused[0]?.message}`,
  ),

  // The agent builds' publishing and downloads (release-errors.ts), in the table's order.
  ...RELEASE_ERRORS,
  RANGE_NOT_SATISFIABLE: { status: 416, message: "Plage d'octets impossible pour ce fichier." },
  KEY_SET_NOT_PUBLISHED: { status: 404, message: 'Aucun jeu de clés signé.' },
  DEV_TRUST_ROOT_ABSENT: { status: 404, message: 'Aucune racine de développement ici.' },
  SIGNING_KEY_NOT_FOUND: { status: 404, message: 'Clé de signature introuvable.' },

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
} as const satisfies Record<string, { status: number; message: string | ((details: never) => string) }>;

export type ErrorCode = keyof typeof ERRORS;
