import { z } from 'zod';
import { ROUTE_KINDS } from './world.ts';

/**
 * Remote commands to a bot agent (decision 208). Each is stored with its state; only the agent's
 * acknowledgement (`bot_command_ack`) moves one past `sent`, and only its result ends it.
 */
export const BOT_COMMAND_KINDS = ['pause', 'resume', 'restart', 'stopAccount', 'configure'] as const;
export type BotCommandKind = (typeof BOT_COMMAND_KINDS)[number];

export const BOT_COMMAND_LABELS: Record<BotCommandKind, string> = {
  pause: 'Pause',
  resume: 'Reprise',
  restart: 'Redémarrage de l’agent',
  stopAccount: 'Arrêt d’un compte de jeu',
  configure: 'Nouvelle configuration',
};

/**
 * queued (the bot is offline or not reached yet) → sent (emitted on its socket) → acknowledged (the
 * agent said it has it) → succeeded / failed (the agent's message); expired (not acknowledged
 * within the TTL); cancelled (by someone, or replaced by a newer configuration).
 */
export const BOT_COMMAND_STATES = [
  'queued',
  'sent',
  'acknowledged',
  'succeeded',
  'failed',
  'expired',
  'cancelled',
] as const;
export type BotCommandState = (typeof BOT_COMMAND_STATES)[number];

export const BOT_COMMAND_STATE_LABELS: Record<BotCommandState, string> = {
  queued: 'En file d’attente',
  sent: 'Envoyée',
  acknowledged: 'Reçue par le bot',
  succeeded: 'Exécutée',
  failed: 'Échouée',
  expired: 'Expirée',
  cancelled: 'Annulée',
};

/** States after which nothing changes. */
export const BOT_COMMAND_FINAL_STATES: readonly BotCommandState[] = [
  'succeeded',
  'failed',
  'expired',
  'cancelled',
];

const accountNameSchema = z.string().trim().min(1).max(64);
const routeIdSchema = z.string().trim().min(1).max(64);

/**
 * The settings an agent runs with (`configure`): the route every account follows unless its own
 * options say otherwise, and per game account whether it runs and its own route. An account left
 * out keeps running on the bot's route.
 */
export const agentConfigurationSchema = z.strictObject({
  /** The route every account follows (null: the agent's own choice). */
  routeId: routeIdSchema.nullable(),
  accounts: z
    .array(
      z.strictObject({
        name: accountNameSchema,
        /** false: this account stays stopped. */
        enabled: z.boolean().default(true),
        /** This account's own route (overrides `routeId`). */
        routeId: routeIdSchema.nullable().default(null),
      }),
    )
    .max(8)
    .default([]),
});
export type AgentConfiguration = z.infer<typeof agentConfigurationSchema>;

/** What the issuer sends: the kind and, for `stopAccount` and `configure`, its payload. */
export const botCommandInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('pause') }),
  z.strictObject({ kind: z.literal('resume') }),
  z.strictObject({ kind: z.literal('restart') }),
  z.strictObject({ kind: z.literal('stopAccount'), payload: z.strictObject({ account: accountNameSchema }) }),
  z.strictObject({ kind: z.literal('configure'), payload: agentConfigurationSchema }),
]);
export type BotCommandInput = z.input<typeof botCommandInput>;
export type BotCommandPayload = Record<string, unknown>;

export const botCommandSchema = z.object({
  id: z.string(),
  hwid: z.string(),
  kind: z.enum(BOT_COMMAND_KINDS),
  payload: z.record(z.string(), z.unknown()),
  state: z.enum(BOT_COMMAND_STATES),
  /** failed: the agent's message; cancelled: why ("remplacée" by a newer configuration). */
  message: z.string().nullable(),
  /** Who sent it: the owner, or staff (named only to staff; a customer reads "l’équipe"). */
  issuer: z.object({ type: z.enum(['owner', 'staff']), username: z.string().nullable() }),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Past this instant a command not acknowledged yet expires. */
  expiresAt: z.string(),
});
export type BotCommand = z.infer<typeof botCommandSchema>;

/**
 * A published route by name: those staff may push (`GET /admin/bots/route-choices`), those an
 * owner's bot may follow (`GET /me/bot/routes`).
 */
export const routeChoiceSchema = z.object({ id: z.string(), name: z.string(), kind: z.enum(ROUTE_KINDS) });
export type RouteChoice = z.infer<typeof routeChoiceSchema>;
export const routeChoicesAnswer = z.object({ data: z.array(routeChoiceSchema) });

export const botCommandAnswer = z.object({ data: botCommandSchema });
export const botCommandListAnswer = z.object({ data: z.array(botCommandSchema) });

/** `bot_command` (server → agent): run this; acknowledge it at once, then send its result. */
export interface BotCommandDelivery {
  id: string;
  kind: BotCommandKind;
  payload: BotCommandPayload;
}

/** `bot_command_ack` (agent → server). */
export const botCommandAckSchema = z.strictObject({ id: z.string().uuid() });
export type BotCommandAck = z.infer<typeof botCommandAckSchema>;

/** Longest result message kept: a longer one is cut and ends with "…" (never refused). */
export const BOT_COMMAND_MESSAGE_MAX_CHARS = 500;

/** `bot_command_result` (agent → server): the outcome, with the agent's message (shown to the owner). */
export const botCommandResultSchema = z.strictObject({
  id: z.string().uuid(),
  ok: z.boolean(),
  /** Longer than `BOT_COMMAND_MESSAGE_MAX_CHARS` is accepted and cut. */
  message: z.string().max(16_000).optional(),
});
export type BotCommandResult = z.infer<typeof botCommandResultSchema>;
