import type {
  AgentUpdate,
  BotCommand,
  BotCommandDelivery,
  BotCommandResult,
  BotHistoryUpdate,
  BotLogBatch,
  BotLogLines,
  BotReport,
  BotState,
  LeaseRenewal,
  LeaseRevocation,
  MapViewport,
  PublicSettings,
  SocketAck,
  SocketAuthenticateAck,
  SocketAuthenticateInput,
} from '@bot/contracts';
import { errorMessage } from '@bot/contracts';

/**
 * The examples of the AsyncAPI document (docs/protocol.md): typed by the contracts, and validated
 * against the document's own schemas by `test/asyncapi.test.ts`.
 */
const hwid = 'PC-7F3A2B91-C4D0';
const commandId = '6f1c2a7e-9b3d-4e51-8a20-3c5d7e9f1b42';
const token = 'bs_Zr8kV2mQ4xT9wL1pN6yH3cJ7bF5dS0aE';
const account = {
  name: 'ombre-feu',
  character: 'Ombre-Feu',
  level: 142,
  status: 'gathering',
  position: { mapId: 88_212_481, x: 4, y: -18 },
  routeId: 'route-frene-amakna',
  stats: { gathered: 1_834, treasures: 2, kamas: 412_300, xp: 9_120_455 },
  message: null,
} as const satisfies BotReport['accounts'][number];

const authenticateBot: SocketAuthenticateInput = { type: 'bot', token, hwid };
const authenticateClient: SocketAuthenticateInput = { type: 'client', token: 'f3b9c1d4e7a2…', hwid };
const authenticateRefused: SocketAuthenticateAck = {
  ok: false,
  error: 'Session du bot invalide ou expirée.',
  code: 'BOT_SESSION_INVALID',
};
const report: BotReport = { accounts: [account], paused: false };
/** Refusals answered to an agent's messages (decision 923), worded by the error table. */
const levelRefused = [{ path: 'accounts.0.level', message: 'Nombre entier attendu, nombre décimal reçu' }];
const reportRefused: SocketAck = {
  ok: false,
  error: errorMessage('VALIDATION_ERROR', levelRefused),
  code: 'VALIDATION_ERROR',
  details: levelRefused,
};
const throttled: SocketAck = { ok: false, error: errorMessage('RATE_LIMITED'), code: 'RATE_LIMITED' };
const commandNotPending: SocketAck = {
  ok: false,
  error: errorMessage('BOT_COMMAND_NOT_PENDING'),
  code: 'BOT_COMMAND_NOT_PENDING',
};
const lineRefused = [{ path: 'lines.1.time', message: 'Date et heure ISO 8601 avec décalage attendues' }];
const logLineRefused: SocketAck = {
  ok: false,
  error: errorMessage('VALIDATION_ERROR', lineRefused),
  code: 'VALIDATION_ERROR',
  details: lineRefused,
};
const viewport: MapViewport = {
  minX: -40,
  minY: -40,
  maxX: 40,
  maxY: 40,
  cellSize: null,
  statuses: ['fighting', 'error'],
  owner: '',
  version: '1.4',
};
const commandFailed: BotCommandResult = { id: commandId, ok: false, message: 'Compte inconnu : ombre-glace' };
const logBatch: BotLogBatch = {
  lines: [
    {
      id: 'r7k2-1041',
      level: 'info',
      time: '2026-11-28T09:15:02.114+01:00',
      message: 'Récolte terminée : 12 frênes',
    },
    {
      id: 'r7k2-1042',
      level: 'warn',
      time: '2026-11-28T09:15:04.020+01:00',
      message: 'Inventaire plein à 90 %',
    },
  ],
};
const authError = { error: 'Une connexion plus récente de ce PC a remplacé celle-ci.', code: 'BOT_REPLACED' };
const state: BotState = {
  hwid,
  owner: { id: '0b8f6f52-2c1e-4d59-9a8e-5f2b7c3d1e90', username: 'alice' },
  online: true,
  version: '1.4.0',
  connectedAt: '2026-11-28T08:02:11.000Z',
  lastSeenAt: '2026-11-28T08:15:02.000Z',
  accounts: [account],
};
const publicSettings: PublicSettings = {
  isSnow: false,
  registrationOpen: true,
  maintenanceMode: false,
  maintenanceMessage: '',
  announcement: 'Maintenance prévue dimanche à 6 h.',
  hwidResetCooldownHours: 24,
  maintenanceWindow: null,
};
const leaseRevoked: LeaseRevocation = { error: 'Votre compte est suspendu.', code: 'ACCOUNT_BANNED' };
const keyRevoked: LeaseRevocation = {
  error: 'La clé qui a signé le bail de licence a été révoquée : le bail doit être renouvelé.',
  code: 'LEASE_KEY_REVOKED',
  kid: 'Xo3lF0zq2h5o6d3Q8VbN1mK7cT4yR9wE2aJ6sU1pL0g',
  statement: 'eyJhbGciOiJFZERTQSIsInR5cCI6ImJvdC1rZXktcmV2b2NhdGlvbitqd3QifQ.eyJyZXZva2VkS2lkIjoi…',
};
const leaseRenewal: LeaseRenewal = {
  lease:
    'eyJhbGciOiJFZERTQSIsImtpZCI6IlhvM2xGMHpxIiwidHlwIjoiYm90LWxlYXNlK2p3dCJ9.eyJzdWIiOiIwYjhmIn0.c2lnbmF0dXJl',
  whitelist: ['ombre-feu', 'ombre-glace'],
};
const command: BotCommandDelivery = {
  id: commandId,
  kind: 'configure',
  payload: { routeId: 'route-frene-amakna', accounts: [{ name: 'ombre-feu', enabled: true, routeId: null }] },
};
const commandState: BotCommand = {
  id: commandId,
  hwid,
  kind: 'pause',
  payload: {},
  state: 'acknowledged',
  message: null,
  issuer: { type: 'owner', username: 'alice' },
  createdAt: '2026-11-28T08:20:00.000Z',
  updatedAt: '2026-11-28T08:20:01.000Z',
  expiresAt: '2026-11-28T08:35:00.000Z',
};
const minutes: BotHistoryUpdate = {
  hwid,
  points: [
    {
      minute: '2026-11-28T08:15:00.000Z',
      account: 'ombre-feu',
      gathered: 12,
      treasures: 0,
      kamas: 340,
      xp: 5_200,
    },
  ],
};
const logLines: BotLogLines = {
  hwid,
  lines: [
    {
      id: '1732781702114-0001',
      level: 'info',
      time: '2026-11-28T08:15:02.114Z',
      message: 'Récolte terminée : 12 frênes',
      origin: 'agent',
    },
  ],
};
const update: AgentUpdate = {
  version: '1.3.2',
  channel: 'stable',
  notes: 'Retour à la version 1.3.2 : la 1.4.0 a été retirée.',
  pageUrl: '/started',
  manifest: 'eyJhbGciOiJFZERTQSIsInR5cCI6ImJvdC1yZWxlYXNlK2p3dCJ9.eyJ2ZXJzaW9uIjoiMS4zLjIi…',
  rollback: true,
};

export const EXAMPLES = {
  hwid,
  commandId,
  authenticateBot,
  authenticateClient,
  authenticateRefused,
  report,
  reportRefused,
  throttled,
  commandNotPending,
  logLineRefused,
  viewport,
  commandFailed,
  logBatch,
  authError,
  state,
  publicSettings,
  leaseRevoked,
  keyRevoked,
  leaseRenewal,
  command,
  commandState,
  minutes,
  logLines,
  update,
};
