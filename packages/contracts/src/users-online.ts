import { z } from 'zod';
import { listAnswer, listQuery } from './admin.ts';
import { adminSessionSchema } from './admin-users.ts';
import { hwidSchema } from './bots.ts';

/** One connected bot agent, as `/admin/usersOnline` lists it. */
export const onlineBotSchema = z.object({
  hwid: z.string(),
  ownerId: z.string(),
  ownerUsername: z.string(),
  version: z.string(),
  connectedAt: z.string(),
  lastSeenAt: z.string(),
  /** Number of game accounts the bot drives. */
  accounts: z.number().int(),
  accountNames: z.array(z.string()),
  /** The agent's last report said it is paused (a remote `pause`, decision 208). */
  paused: z.boolean(),
});
export type OnlineBot = z.infer<typeof onlineBotSchema>;

export const ONLINE_BOT_SORTS = [
  'ownerUsername',
  'hwid',
  'version',
  'connectedAt',
  'lastSeenAt',
  'accounts',
] as const;
export const onlineBotsQuery = listQuery.extend({
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
  /** Agent version or its start (`versionMatches`). */
  version: z.string().trim().max(64).optional(),
});
export type OnlineBotsQuery = z.infer<typeof onlineBotsQuery>;
export const onlineBotsAnswer = listAnswer(onlineBotSchema);

/** One signed-in web session (not revoked, not expired, seen recently). */
export const onlineSessionSchema = adminSessionSchema
  .pick({ id: true, ip: true, userAgent: true, createdAt: true, lastSeenAt: true, expiresAt: true })
  .extend({
    userId: z.string(),
    username: z.string(),
    /** Live sockets (bot page, map) this user has open on this node. */
    liveSockets: z.number().int(),
  });
export type OnlineSession = z.infer<typeof onlineSessionSchema>;

/** Sessions seen within this many minutes count as signed in (`lastSeenAt` is written once a minute). */
export const ONLINE_SESSION_WINDOW_MINUTES = 30;
export const ONLINE_SESSION_SORTS = ['username', 'ip', 'createdAt', 'lastSeenAt', 'expiresAt'] as const;
export const onlineSessionsQuery = listQuery.extend({
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});
export type OnlineSessionsQuery = z.infer<typeof onlineSessionsQuery>;
export const onlineSessionsAnswer = listAnswer(onlineSessionSchema);

export const onlineBotParams = z.object({ hwid: hwidSchema });
export const onlineSessionParams = z.object({ id: z.string().uuid('Identifiant invalide.') });
