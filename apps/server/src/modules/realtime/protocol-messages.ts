import {
  agentUpdateSchema,
  BOT_COMMAND_KINDS,
  BOT_COMMAND_MESSAGE_MAX_CHARS,
  BOT_LOG_BATCH_MAX_LINES,
  BOT_LOG_MESSAGE_MAX_CHARS,
  botCommandAckSchema,
  botCommandResultSchema,
  botCommandSchema,
  botHistoryUpdateSchema,
  botLogBatchSchema,
  botLogLineSchema,
  botReportSchema,
  botStateSchema,
  type ClientToServerEvents,
  LEASE_REVOKING_CODES,
  leaseRenewalSchema,
  mapViewportSchema,
  publicSettingsSchema,
  type ServerToClientEvents,
  socketAckSchema,
  socketAuthenticateInput,
} from '@bot/contracts';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import { EXAMPLES } from './protocol-examples.ts';

/** Who sends or receives an event: a bot agent, a browser (client, admin and log sockets), or both. */
export type Audience = 'agent' | 'navigateur' | 'tous';

/**
 * One socket event as the AsyncAPI document describes it (docs/protocol.md): its payload's zod
 * schema (none for an event without argument), at least one example, and, for an event the sender
 * may acknowledge, the answer's schema and examples.
 */
export interface EventDescription<Payload, Answer = never> {
  audience: Audience;
  summary: string;
  description: string;
  payload: z.ZodType<Payload> | null;
  examples: Payload[];
  ack?: { schema: z.ZodType<Answer>; examples: Answer[] };
}

/** The first argument of an event, `undefined` for an event without one. */
type PayloadOf<F> = F extends () => void
  ? undefined
  : F extends (payload: infer P, ...rest: never[]) => void
    ? P
    : never;
/** The answer an acknowledgement callback receives; `unknown` when the event takes none. */
type AnswerOf<F> = F extends (payload: never, ack: (answer: infer A) => void) => void ? A : unknown;

/**
 * Every event of a typed Socket.IO map: the compiler refuses a map that leaves one out, and one
 * whose schema does not give the event's own type, or whose acknowledgement is not described.
 */
type Described<Events> = {
  [E in keyof Events]: unknown extends AnswerOf<Events[E]>
    ? EventDescription<PayloadOf<Events[E]>>
    : EventDescription<PayloadOf<Events[E]>, AnswerOf<Events[E]>> & {
        ack: { schema: z.ZodType<AnswerOf<Events[E]>>; examples: AnswerOf<Events[E]>[] };
      };
};

const refusalSchema = z.object({
  error: z.string().describe('Message en français'),
  code: z.string().describe('Code machine (docs/protocol.md, « Codes d’erreur »)'),
});

const leaseRevocationSchema = refusalSchema.extend({
  kid: z
    .string()
    .optional()
    .describe('Présent : cette clé de signature est révoquée, le socket reste ouvert'),
  statement: z.string().optional().describe('Avec kid : la révocation signée (JWS bot-key-revocation+jwt)'),
});

const commandDeliverySchema = z.object({
  id: z.uuid(),
  kind: z.enum(BOT_COMMAND_KINDS),
  payload: z.record(z.string(), z.unknown()),
});

/** Every message of an agent may carry an acknowledgement callback (decision 923). */
const ANSWERED =
  'Avec un accusé de réception, la réponse est {ok: true} ou {ok: false, code, error, details?} nommant ce qui est refusé (au plus les 5 premiers champs, chacun coupé à 80 caractères ; un texte contenant le caractère nul U+0000 est un champ refusé)';

/** What a bot agent sends and receives, then what browsers do: the order of docs/protocol.md. */
export function clientEvents(config: AppConfig): Described<ClientToServerEvents> {
  const { realtime, botLog } = config;
  return {
    authenticate: {
      audience: 'tous',
      summary: 'S’authentifier (premier message de tout socket)',
      description: `À envoyer dans les ${realtime.authTimeoutMs / 1000} s qui suivent la connexion, une seule fois (les suivants sont ignorés). Un agent envoie {type: 'bot', token: <jeton de session de bot>, hwid} ; une page {type: 'client', token, hwid} (le bot qu’elle suit), {type: 'admin', token} (le staff, can_manageMap) ou {type: 'log', token, hwid} (le journal d’un bot : son propriétaire, ou le staff ; l’agent reçoit alors bot_log_start) avec un jeton de session web. Avec un accusé de réception, la réponse est {ok: true} ou {ok: false, error, code} ; tout refus envoie aussi auth_error puis ferme le socket.`,
      payload: socketAuthenticateInput,
      examples: [EXAMPLES.authenticateBot, EXAMPLES.authenticateClient],
      ack: { schema: socketAckSchema, examples: [{ ok: true }, EXAMPLES.authenticateRefused] },
    },
    bot_update: {
      audience: 'agent',
      summary: 'Rapport de l’agent : ses comptes de jeu',
      description: `Au plus ${realtime.botUpdatesPerSecond} par seconde et par socket (les autres sont ignorés). Un agent silencieux plus longtemps que le réglage botOfflineTimeoutSeconds (30 s par défaut) passe hors ligne et son socket est fermé : renvoyer le dernier rapport toutes les 10 s, comme le SDK. Au plus 8 comptes ; stats sont des compteurs CUMULÉS (depuis le démarrage de l’agent), jamais des écarts : le serveur calcule l’écart entre deux rapports, et une valeur plus petite que la précédente compte comme un redémarrage. Un rapport invalide est ignoré en entier (le socket reste ouvert). ${ANSWERED} : VALIDATION_ERROR nomme les champs refusés (details, une clé inconnue par son propre chemin), RATE_LIMITED un rapport au-delà du débit (details {limitPerSecond, retryAfterMs} : la limite et l’attente avant le prochain rapport accepté), UNAUTHORIZED un socket qui n’est pas l’agent authentifié de ce PC.`,
      payload: botReportSchema,
      examples: [EXAMPLES.report],
      ack: { schema: socketAckSchema, examples: [{ ok: true }, EXAMPLES.reportRefused, EXAMPLES.throttled] },
    },
    map_viewport: {
      audience: 'navigateur',
      summary: 'Carte du staff : la zone et les filtres affichés',
      description: 'Socket admin seulement (décision 206).',
      payload: mapViewportSchema,
      examples: [EXAMPLES.viewport],
    },
    bot_command_ack: {
      audience: 'agent',
      summary: 'L’agent a reçu une commande',
      description: `À envoyer dès la réception de bot_command : seul cet accusé fait passer la commande de « sent » à « acknowledged » ; sans lui elle expire. ${ANSWERED} : BOT_COMMAND_NOT_PENDING quand la commande n’est pas « sent » (inconnue, expirée, annulée, déjà reçue).`,
      payload: botCommandAckSchema,
      examples: [{ id: EXAMPLES.commandId }],
      ack: { schema: socketAckSchema, examples: [{ ok: true }, EXAMPLES.commandNotPending] },
    },
    bot_command_result: {
      audience: 'agent',
      summary: 'Le résultat d’une commande',
      description: `Après bot_command_ack : ok vrai ou faux, et un message gardé et montré au propriétaire (succès compris) ; au-delà de ${BOT_COMMAND_MESSAGE_MAX_CHARS} caractères il est coupé, jamais refusé. ${ANSWERED} : BOT_COMMAND_NOT_PENDING quand la commande n’est pas « acknowledged ».`,
      payload: botCommandResultSchema,
      examples: [{ id: EXAMPLES.commandId, ok: true }, EXAMPLES.commandFailed],
      ack: { schema: socketAckSchema, examples: [{ ok: true }, EXAMPLES.commandNotPending] },
    },
    bot_log: {
      audience: 'agent',
      summary: 'Lignes du journal de l’agent',
      description: `Seulement entre bot_log_start et bot_log_stop. Au plus ${BOT_LOG_BATCH_MAX_LINES} lignes par message ; niveaux debug, info, warn, error ; time en ISO 8601 avec décalage ; un message de plus de ${BOT_LOG_MESSAGE_MAX_CHARS} caractères est coupé. Lignes en direct : ${botLog.linesPerSecond} par seconde, rafales de ${botLog.burst} ; backlog: true pour les lignes récentes envoyées une fois au début (au plus 500). id : l’identifiant de la ligne chez l’agent (unique sur ce PC, d’une exécution à l’autre) ; une ligne renvoyée avec le même id n’est gardée qu’une fois. Une ligne invalide (ou contenant le caractère nul U+0000) est refusée seule (les autres sont gardées) ; un lot dont l’enveloppe est invalide (trop de lignes, champ inconnu) est refusé en entier ; le débit s’applique avant la lecture des lignes. ${ANSWERED} : BOT_LOG_LINES_REFUSED nomme les lignes refusées seules (details {refused: [{path: lines.N.champ, message}] (les 5 premiers champs), refusedLines, kept}), VALIDATION_ERROR un lot refusé en entier, RATE_LIMITED des lignes au-delà du débit, BOT_LOG_NOT_REQUESTED un lot hors d’un journal demandé.`,
      payload: botLogBatchSchema,
      examples: [EXAMPLES.logBatch],
      ack: { schema: socketAckSchema, examples: [{ ok: true }, EXAMPLES.logLineRefused, EXAMPLES.throttled] },
    },
  };
}

export function serverEvents(config: AppConfig): Described<ServerToClientEvents> {
  const { realtime } = config;
  return {
    auth_error: {
      audience: 'tous',
      summary: 'Refus : le serveur dit pourquoi, puis ferme le socket',
      description: `Après un authenticate refusé, ou pour fermer un socket authentifié (session révoquée, version trop ancienne, remplacé par une connexion plus récente…). Un agent ne se reconnecte pas après un code définitif (BOT_REPLACED, BOT_KICKED, ${LEASE_REVOKING_CODES.join(', ')}…) ; après BOT_SESSION_INVALID il ouvre d’abord une nouvelle session (docs/protocol.md, « Reconnecting »).`,
      payload: refusalSchema,
      examples: [EXAMPLES.authError],
    },
    authenticated: {
      audience: 'tous',
      summary: 'Authentification acceptée',
      description: 'Le socket est admis ; un socket admin apprend aussi son flux (full ou viewport).',
      payload: z.object({
        type: z.enum(['client', 'admin', 'bot', 'log']),
        hwid: z.string().optional(),
        feed: z.enum(['full', 'viewport']).optional(),
      }),
      examples: [{ type: 'bot', hwid: EXAMPLES.hwid }],
    },
    bot_update: {
      audience: 'navigateur',
      summary: 'L’état d’un bot (client) ou un lot d’états (admin)',
      description: `Socket client : un BotState à chaque changement. Socket admin : des lots de BotState (au plus 500), toutes les ${realtime.adminFlushMs} ms.`,
      payload: z.union([botStateSchema, z.array(botStateSchema)]),
      examples: [EXAMPLES.state],
    },
    bot_snapshot: {
      audience: 'navigateur',
      summary: 'Tous les bots en ligne (socket admin, à l’authentification)',
      description: 'Envoyé une fois après authenticated sur le flux complet.',
      payload: z.array(botStateSchema),
      examples: [[EXAMPLES.state]],
    },
    bot_disconnect: {
      audience: 'navigateur',
      summary: 'Un bot est passé hors ligne (socket admin)',
      description: 'Le hwid du bot.',
      payload: z.string(),
      examples: [EXAMPLES.hwid],
    },
    online_count: {
      audience: 'navigateur',
      summary: 'Nombre de bots en ligne (socket admin)',
      description: 'À l’authentification puis à chaque changement.',
      payload: z.number().int().nonnegative(),
      examples: [1284],
    },
    settings_update: {
      audience: 'navigateur',
      summary: 'Les réglages publics ont changé',
      description: 'À tout navigateur authentifié : la même forme que GET /api/settings/public.',
      payload: publicSettingsSchema,
      examples: [EXAMPLES.publicSettings],
    },
    notification: {
      audience: 'navigateur',
      summary: 'Nouvelles notifications pour l’utilisateur',
      description: 'Sans argument : le navigateur relit GET /api/me/notifications/unread.',
      payload: null,
      examples: [],
    },
    map_cells: {
      audience: 'navigateur',
      summary: 'Carte du staff dézoomée : comptes par case d’un nœud',
      description: `Toutes les ${realtime.mapCellsMs} ms ; cells contient, par case occupée, sa colonne, sa ligne puis un compte par statut (pas de 2 + 8).`,
      payload: z.object({
        node: z.string(),
        cellSize: z.number().int().positive(),
        cells: z.array(z.number().int()),
      }),
      examples: [{ node: 'node-a', cellSize: 64, cells: [3, -2, 0, 4, 1, 0, 0, 0, 0, 0] }],
    },
    lease_revoked: {
      audience: 'agent',
      summary: 'Le bail ne vaut plus',
      description: `Sans kid : le bail de l’agent est révoqué (${LEASE_REVOKING_CODES.join(', ')}), auth_error suit et le socket se ferme ; l’agent cesse de tourner. Avec kid (code LEASE_KEY_REVOKED) : cette clé de signature est révoquée, statement en est la preuve signée ; l’agent renouvelle son bail (POST /api/bot/lease), le socket reste ouvert.`,
      payload: leaseRevocationSchema,
      examples: [EXAMPLES.leaseRevoked, EXAMPLES.keyRevoked],
    },
    lease_renewed: {
      audience: 'agent',
      summary: 'Un bail neuf : la liste blanche ou les droits de l’agent ont changé',
      description:
        'Dès que la liste blanche du propriétaire ou ses droits (une permission accordée, expirée, retirée) changent, sans attendre le prochain renouvellement : lease est un bail à vérifier comme tout autre (il remplace le bail détenu), whitelist la liste blanche qu’il nomme. La session du bot n’est pas prolongée (seuls les renouvellements de l’agent la prolongent).',
      payload: leaseRenewalSchema,
      examples: [EXAMPLES.leaseRenewal],
    },
    bot_command: {
      audience: 'agent',
      summary: 'Une commande à exécuter',
      description: `Répondre aussitôt bot_command_ack, puis bot_command_result. Une commande non accusée expire après ${config.commands.ttlMs / 60_000} min ; une commande envoyée à une connexion précédente peut revenir : dédoublonner par id.`,
      payload: commandDeliverySchema,
      examples: [EXAMPLES.command],
    },
    bot_command_update: {
      audience: 'navigateur',
      summary: 'Une commande a changé d’état',
      description: 'Aux observateurs du bot, aux cartes du staff et au membre du staff qui l’a envoyée.',
      payload: botCommandSchema,
      examples: [EXAMPLES.commandState],
    },
    bot_history: {
      audience: 'navigateur',
      summary: 'Les minutes du bot pas encore écrites',
      description:
        'Aux observateurs du bot, quand il a rapporté : chaque point est le total de sa minute et de son compte jusqu’ici ; la page remplace ses points par ceux-ci (elle ne les ajoute pas).',
      payload: botHistoryUpdateSchema,
      examples: [EXAMPLES.minutes],
    },
    bot_log_start: {
      audience: 'agent',
      summary: 'Quelqu’un lit le journal : envoyer les lignes',
      description:
        'Sans argument. L’agent envoie d’abord ses lignes récentes (backlog: true), puis les nouvelles.',
      payload: null,
      examples: [],
    },
    bot_log_stop: {
      audience: 'agent',
      summary: 'Plus personne ne lit le journal : ne plus rien envoyer',
      description: 'Sans argument.',
      payload: null,
      examples: [],
    },
    bot_log: {
      audience: 'navigateur',
      summary: 'Lignes du journal d’un bot (socket log)',
      description:
        'Les lignes telles que gardées : id, origin agent ou server (le serveur dit combien il en a ignoré).',
      payload: z.object({ hwid: z.string(), lines: z.array(botLogLineSchema) }),
      examples: [EXAMPLES.logLines],
    },
    update_available: {
      audience: 'agent',
      summary: 'Une mise à jour, tout de suite',
      description:
        'La version que l’agent exécute a été retirée : voici celle où revenir (rollback: true, manifeste signé à vérifier). Sinon l’agent apprend les mises à jour dans la réponse de POST /api/bot/sessions.',
      payload: agentUpdateSchema,
      examples: [EXAMPLES.update],
    },
  };
}
