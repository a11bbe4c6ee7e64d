import type { User } from '@bot/contracts';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../context.ts';
import type { UserCache } from '../../core/caches.ts';
import type { EventBus } from '../../core/events.ts';
import { getUserById, type UserRow } from '../users/index.ts';
import { findRolesOfUsers } from './access.service.ts';

// The user as the API shows it carries their roles: it is built here, above the users and roles it
// joins, so the users module (which every other one reads) imports no other module.

/** The user object of docs/specification.md §4: never a hash, a token or a key. */
function toPublicUser(row: UserRow, roles: { id: string; name: string }[]): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    discordId: row.discordId,
    hwid: row.hwid,
    referral: row.referral,
    activated: row.activatedAt !== null,
    createdAt: row.createdAt.toISOString(),
    roles,
    Policy: { IsAdministrator: row.isAdministrator },
  };
}

export async function toPublicUsers(ctx: AppContext, rows: UserRow[]): Promise<User[]> {
  const roles = await findRolesOfUsers(
    ctx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPublicUser(row, roles.get(row.id) ?? []));
}

export async function getPublicUser(ctx: AppContext, userId: string): Promise<User> {
  const row = await getUserById(ctx, userId);
  const [user] = await toPublicUsers(ctx, [row]);
  return user!;
}

/**
 * The signed-in user's own object is read on every page of the web app: kept briefly per node and
 * dropped as soon as anything it shows changes on any node (`user.changed`: roles, Discord id, PC
 * bound; `hwid.reset`; `user.banned`); the TTL bounds staleness while Redis, which relays those
 * events, is unreachable.
 */
const USER_CACHE_TTL_MS = 10_000;

/** Built once per app (app.ts). */
export function createUserCache(events: EventBus): UserCache {
  const cache = new LRUCache<string, User>({ max: 50_000, ttl: USER_CACHE_TTL_MS });
  const drop = ({ userId }: { userId: string }) => cache.delete(userId);
  events.on('user.changed', drop);
  events.on('user.banned', drop);
  events.on('hwid.reset', drop);
  return cache;
}

/** `getPublicUser` through the cache: for the user's own reads (`GET /me/info`). */
export async function getCachedPublicUser(ctx: AppContext, userId: string): Promise<User> {
  const cached = ctx.userCache.get(userId);
  if (cached) return cached;
  const user = await getPublicUser(ctx, userId);
  ctx.userCache.set(userId, user);
  return user;
}
