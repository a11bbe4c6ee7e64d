import { z } from 'zod';
import type { BotCommand, BotCommandAck, BotCommandDelivery, BotCommandResult } from './bot-commands.ts';
import type { BotLogBatch, BotLogLines } from './bot-log.ts';
import { isoDateTime } from './dates.ts';
import { hwidComponentsSchema, type LeaseRenewal } from './licensing.ts';
import { int32 } from './numbers.ts';
import { type AgentUpdate, agentUpdateSchema, releaseChannelSchema, semverSchema } from './releases.ts';

export const hwidSchema = z
  .string()
  .trim()
  .min(8, 'HWID invalide.')
  .max(128, 'HWID invalide.')
  .regex(/^[A-Za-z0-9:_-]+$/, 'HWID invalide.');

export const BOT_STATUSES = [
  'idle',
  'moving',
  'gathering',
  'treasure',
  'fighting',
  'banking',
  'stopped',
  'error',
] as const;
export type BotStatus = (typeof BOT_STATUSES)[number];

export const BOT_STATUS_LABELS: Record<BotStatus, string> = {
  idle: 'Inactif',
  moving: 'En déplacement',
  gathering: 'Récolte',
  treasure: 'Chasse au trésor',
  fighting: 'Combat',
  banking: 'Banque',
  stopped: 'Arrêté',
  error: 'Erreur',
};

export const positionSchema = z.object({
  mapId: int32(),
  x: z.number().int().min(-1000).max(1000),
  y: z.number().int().min(-1000).max(1000),
});

export const accountStatsSchema = z.object({
  gathered: int32().nonnegative(),
  treasures: int32().nonnegative(),
  kamas: int32().nonnegative(),
  xp: int32().nonnegative(),
});

/** One game account driven by a bot, as the bot reports it. */
export const botAccountSchema = z.strictObject({
  name: z.string().trim().min(1).max(64),
  character: z.string().trim().min(1).max(64),
  level: z.number().int().min(1).max(1000),
  status: z.enum(BOT_STATUSES),
  position: positionSchema,
  routeId: z.string().max(64).nullable(),
  stats: accountStatsSchema,
  message: z.string().max(200).nullable(),
});
export type BotAccount = z.infer<typeof botAccountSchema>;

/** What a bot emits in `bot_update`: the server adds owner, hwid, times. */
export const botReportSchema = z.strictObject({
  /** Accepted for older agents and ignored: the version shown is the one checked when the session opened. */
  version: z.string().max(32).optional(),
  accounts: z.array(botAccountSchema).max(8),
  /** True while the agent is paused by a remote command (decision 208); absent or false: running. */
  paused: z.boolean().optional(),
});
export type BotReport = z.infer<typeof botReportSchema>;

/** The state of one bot as watchers receive it. */
export const botStateSchema = z.object({
  hwid: z.string(),
  owner: z.object({ id: z.string(), username: z.string() }),
  online: z.boolean(),
  version: z.string(),
  connectedAt: z.string(),
  lastSeenAt: z.string(),
  accounts: z.array(botAccountSchema),
  /** The agent's last report said it is paused (a `pause` command it ran); absent: running. */
  paused: z.boolean().optional(),
});
export type BotState = z.infer<typeof botStateSchema>;

/**
 * The bot protocol this server speaks, `MAJOR.MINOR` (docs/protocol.md, "Versions of the protocol";
 * docs/PROTOCOL-CHANGELOG.md): a minor adds what an agent may ignore, a major changes or removes.
 */
export const PROTOCOL_VERSION = '1.1';
/** What an agent that does not say which protocol it speaks speaks. */
export const PROTOCOL_VERSION_UNSAID = '1.0';
export const protocolVersionSchema = z
  .string()
  .regex(
    /^(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/,
    'version de protocole attendue au format MAJEURE.MINEURE (1.1).',
  );

export const botSessionInput = z.strictObject({
  accessKey: z.string().trim().min(16).max(128),
  hwid: hwidSchema,
  /** The PC's parts, each hashed (docs/licensing.md); an agent without them is one component, its hwid. */
  components: hwidComponentsSchema.optional(),
  version: semverSchema,
  /** The release channel the agent follows, for the update notice (default stable). */
  channel: releaseChannelSchema.default('stable'),
  /** The protocol version the agent speaks; another major than the server's is refused (426). */
  protocolVersion: protocolVersionSchema.default(PROTOCOL_VERSION_UNSAID),
  /**
   * The agent's previous run ended in a crash: its version, when, and what it said. Counted per
   * version when a rollout is judged (decision 910) and shown in the bot's timeline.
   */
  lastCrash: z
    .strictObject({
      version: semverSchema,
      at: isoDateTime(),
      message: z.string().trim().max(500),
    })
    .optional(),
});
export type BotSessionInput = z.input<typeof botSessionInput>;

export const botSessionAnswer = z.object({
  /**
   * The hwid the PC is bound as: the agent's own, or the bound one when its components matched the
   * bound PC under another hwid (decision 906). The agent uses it on the socket and for its lease.
   */
  hwid: z.string(),
  token: z.string(),
  expiresAt: z.string(),
  whitelist: z.array(z.string()),
  /** A newer build on the agent's channel, or null. */
  update: agentUpdateSchema.nullable(),
  /** The signed lease the agent verifies offline (docs/licensing.md). */
  lease: z.string(),
  /** The protocol version the server speaks (`PROTOCOL_VERSION`): an older minor ignores what it adds. */
  protocolVersion: z.string(),
});
export type BotSessionAnswer = z.infer<typeof botSessionAnswer>;

/** One per-minute aggregate of a game account's activity. */
export const botHistoryPointSchema = z.object({
  minute: z.string(),
  account: z.string(),
  gathered: z.number().int(),
  treasures: z.number().int(),
  kamas: z.number().int(),
  xp: z.number().int(),
});
export type BotHistoryPoint = z.infer<typeof botHistoryPointSchema>;

/**
 * `bot_history` (server → the bot's watchers): its minutes not written yet, each the whole of that
 * minute and account so far, so a page replaces its points with them (never adds: a push repeats
 * what an earlier one or the page's GET already counted). Decision 013.
 */
export const botHistoryUpdateSchema = z.object({
  hwid: z.string(),
  points: z.array(botHistoryPointSchema),
});
export type BotHistoryUpdate = z.infer<typeof botHistoryUpdateSchema>;

export const myBotSchema = z.object({
  /** The PC bound now (null when none). */
  hwid: z.string().nullable(),
  state: botStateSchema.nullable(),
  /** The last 24 h of the bound PC, or of the last one the user had when none is bound. */
  history: z.array(botHistoryPointSchema),
});
export type MyBot = z.infer<typeof myBotSchema>;
export const myBotAnswer = z.object({ data: myBotSchema });

/** A PC a user has had (`GET /admin/users/:id/pcs`): staff choose whose history to read. */
export const userPcSchema = z.object({
  hwid: z.string(),
  isCurrent: z.boolean(),
  /** First and last event of this user with this PC (null: bound, never seen yet). */
  firstSeenAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
});
export type UserPc = z.infer<typeof userPcSchema>;

const mapCoordinate = z.number().int().min(-1000).max(1000);

/**
 * What a staff map shows (decision 206): an area of the world and the filters, either bot by bot
 * (`cellSize` null) or as per-cell counts (`cellSize` map cells per side, zoomed out). Sent with an
 * admin `authenticate` and again as `map_viewport` on every pan, zoom or filter change.
 */
export const mapViewportSchema = z
  .strictObject({
    minX: mapCoordinate,
    minY: mapCoordinate,
    maxX: mapCoordinate,
    maxY: mapCoordinate,
    cellSize: z.number().int().min(1).max(4096).nullable(),
    /** Statuses shown; empty means all. */
    statuses: z.array(z.enum(BOT_STATUSES)).max(BOT_STATUSES.length),
    /** Case-insensitive part of the owner's username; '' means all. */
    owner: z.string().trim().max(64),
    /** Agent version or its start (`versionMatches`); '' means all. */
    version: z.string().trim().max(32),
  })
  .refine((viewport) => viewport.minX <= viewport.maxX && viewport.minY <= viewport.maxY, {
    message: 'Zone de carte invalide.',
  });
export type MapViewport = z.infer<typeof mapViewportSchema>;

/**
 * Per-cell counts from one node (zoomed-out staff map): `cells` holds, for each occupied cell, its
 * column, its row, then one account count per status of BOT_STATUSES (stride 2 + 8). Each node
 * sends its own bots' counts every second; a watcher sums the nodes it heard from lately.
 */
export interface MapCells {
  node: string;
  cellSize: number;
  cells: number[];
}

/** Socket.IO event names of docs/specification.md §5. */
export const SOCKET_EVENTS = {
  authenticate: 'authenticate',
  authError: 'auth_error',
  authenticated: 'authenticated',
  botUpdate: 'bot_update',
  botSnapshot: 'bot_snapshot',
  botDisconnect: 'bot_disconnect',
  onlineCount: 'online_count',
  settingsUpdate: 'settings_update',
  /** New in-app notifications for this browser's user (the bell refreshes its count). */
  notification: 'notification',
  /** Staff map in viewport mode (decision 206): the area and filters it shows. */
  mapViewport: 'map_viewport',
  /** Staff map zoomed out in viewport mode: one node's per-cell counts. */
  mapCells: 'map_cells',
  /** Bot agents: their lease no longer holds (docs/licensing.md, "Revocation"). */
  leaseRevoked: 'lease_revoked',
  /** Server → bot agent: a fresh lease, its whitelist or entitlements changed (decision 923). */
  leaseRenewed: 'lease_renewed',
  /** Server → bot agent: a remote command to run (decision 208). */
  botCommand: 'bot_command',
  /** Bot agent → server: it received the command (the only way past `sent`). */
  botCommandAck: 'bot_command_ack',
  /** Bot agent → server: the command's outcome. */
  botCommandResult: 'bot_command_result',
  /** Server → the bot's watchers and the issuer: a command changed state. */
  botCommandUpdate: 'bot_command_update',
  /** Server → the bot's watchers: its minutes not written yet (the owner's chart, decision 013). */
  botHistory: 'bot_history',
  /** Server → bot agent: someone opened its journal, stream the log (decision 209). */
  botLogStart: 'bot_log_start',
  /** Server → bot agent: nobody watches its journal any more, send nothing. */
  botLogStop: 'bot_log_stop',
  /** Bot agent → server: log lines (`BotLogBatch`); server → journal sockets: `BotLogLines`. */
  botLog: 'bot_log',
  /** Server → bot agent: an update now (the build it runs was withdrawn: go back, decision 910). */
  updateAvailable: 'update_available',
} as const;

/**
 * Refusals of a bot agent that end its licence: before closing the socket with one of them the hub
 * sends `lease_revoked`, and the SDK drops its lease (`leaseRevoked`) rather than run on it offline.
 */
export const LEASE_REVOKING_CODES = [
  'ACCOUNT_BANNED',
  'BOT_PERMISSION_REQUIRED',
  'BOT_VERSION_OUTDATED',
] as const;

/**
 * `lease_revoked`: without `kid`, the agent's lease is revoked and `auth_error` follows (the socket
 * closes); with `kid`, that signing key was revoked: a lease it signed must be replaced at once (the
 * socket stays open).
 */
export interface LeaseRevocation {
  error: string;
  code: string;
  kid?: string;
  /**
   * With `kid`: the revocation statement, signed by a key of the current key set (decision 912). An
   * agent drops the key only when it verifies: a forged `lease_revoked` is ignored.
   */
  statement?: string;
}

export const socketAuthenticateInput = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('client'), token: z.string().min(1).max(256), hwid: hwidSchema }),
  z.strictObject({
    type: z.literal('admin'),
    token: z.string().min(1).max(256),
    /** Offered by a map that can follow a viewport; the hub uses it once the fleet is large. */
    viewport: mapViewportSchema.optional(),
  }),
  z.strictObject({ type: z.literal('bot'), token: z.string().min(1).max(256), hwid: hwidSchema }),
  /** A journal socket (decision 209): open while someone reads the bot's log. */
  z.strictObject({ type: z.literal('log'), token: z.string().min(1).max(256), hwid: hwidSchema }),
]);
export type SocketAuthenticateInput = z.infer<typeof socketAuthenticateInput>;

/** `full`: snapshot and every change (docs/specification.md §5); `viewport`: only what the map shows. */
export type AdminFeed = 'full' | 'viewport';

/**
 * The answer to a message sent with an acknowledgement callback (optional; docs/protocol.md,
 * "Acknowledgements"): accepted, or refused with the error table's code, message and details
 * (`VALIDATION_ERROR`: the fields refused, `[{path, message}]`).
 */
export const socketAckSchema = z.union([
  z.strictObject({ ok: z.literal(true) }),
  z.strictObject({
    ok: z.literal(false),
    error: z.string(),
    code: z.string(),
    details: z.unknown().optional(),
  }),
]);
export type SocketAck = z.infer<typeof socketAckSchema>;
/** Answer to an `authenticate` sent with an acknowledgement callback. */
export type SocketAuthenticateAck = SocketAck;
/** An acknowledgement callback an agent may pass with any message it sends. */
type Acknowledge = (answer: SocketAck) => void;

/** Events the server emits (typed Socket.IO maps for the server, the web app and the bot agent). */
export interface ServerToClientEvents {
  auth_error: (body: { error: string; code: string }) => void;
  /** Admin sockets also learn their feed: the whole fleet, or what their viewport shows (decision 206). */
  authenticated: (info: {
    type: 'client' | 'admin' | 'bot' | 'log';
    hwid?: string;
    feed?: AdminFeed;
  }) => void;
  /** Client sockets: one bot state; admin sockets: a batch of changed states. */
  bot_update: (payload: BotState | BotState[]) => void;
  bot_snapshot: (states: BotState[]) => void;
  bot_disconnect: (hwid: string) => void;
  online_count: (count: number) => void;
  settings_update: (settings: Record<string, unknown>) => void;
  notification: () => void;
  map_cells: (cells: MapCells) => void;
  lease_revoked: (revocation: LeaseRevocation) => void;
  lease_renewed: (renewal: LeaseRenewal) => void;
  bot_command: (command: BotCommandDelivery) => void;
  bot_command_update: (command: BotCommand) => void;
  bot_history: (update: BotHistoryUpdate) => void;
  bot_log_start: () => void;
  bot_log_stop: () => void;
  bot_log: (lines: BotLogLines) => void;
  update_available: (update: AgentUpdate) => void;
}

/** Events peers emit; payloads are validated by the server with the schemas above. */
export interface ClientToServerEvents {
  authenticate: (payload: SocketAuthenticateInput, ack?: (answer: SocketAuthenticateAck) => void) => void;
  bot_update: (report: BotReport, ack?: Acknowledge) => void;
  map_viewport: (viewport: MapViewport) => void;
  bot_command_ack: (received: BotCommandAck, ack?: Acknowledge) => void;
  bot_command_result: (result: BotCommandResult, ack?: Acknowledge) => void;
  bot_log: (batch: BotLogBatch, ack?: Acknowledge) => void;
}
