import { PERMISSIONS, type Permission } from '@bot/contracts';
import { and, eq, gt, inArray, isNull, lte, or } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { type AppContext, isInTransaction, type TxContext } from '../../context.ts';
import type { PermissionCache } from '../../core/caches.ts';
import type { EventBus } from '../../core/events.ts';
import { rolePermissions, roles, userRoles } from '../roles/index.ts';
import { users } from '../users/index.ts';
import { type GrantRow, userGrants } from './access.table.ts';

/**
 * Permissions are read on every guarded request; a short-lived cache keeps that off SQL. Local
 * changes invalidate at once (`user.changed`), other nodes see them within the TTL.
 */
const PERMISSION_CACHE_TTL_MS = 5_000;

/** Built once per app (app.ts): a user's entry goes as soon as their roles, grants or ban change. */
export function createPermissionCache(events: EventBus): PermissionCache {
  const cache = new LRUCache<string, Permission[]>({ max: 50_000, ttl: PERMISSION_CACHE_TTL_MS });
  events.on('user.changed', ({ userId }) => cache.delete(userId));
  events.on('user.banned', ({ userId }) => cache.delete(userId));
  return cache;
}

/**
 * A user's permissions: their roles' ∪ their unexpired grants; every permission for administrators.
 * Inside a transaction they are read through it, never from the cache: a use case's checks see the
 * committed state, not a set another node may have changed since (decision 404), and what the
 * transaction reads may still roll back, so it is not cached either.
 */
export async function getUserPermissions(ctx: AppContext, userId: string): Promise<Permission[]> {
  if (isInTransaction(ctx)) return (await computePermissionsOfUsers(ctx, [userId])).get(userId) ?? [];
  const cached = ctx.permissionCache.get(userId);
  if (cached) return cached;
  const computed = (await computePermissionsOfUsers(ctx, [userId])).get(userId) ?? [];
  ctx.permissionCache.set(userId, computed);
  return computed;
}

/**
 * The permissions of many users (a reconnect storm authenticates thousands of bots at once): three
 * queries whatever their number, cached like a single user's.
 */
export async function getPermissionsOfUsers(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<Map<string, Permission[]>> {
  const result = new Map<string, Permission[]>();
  const missing: string[] = [];
  for (const userId of userIds) {
    const cached = ctx.permissionCache.get(userId);
    if (cached) result.set(userId, cached);
    else missing.push(userId);
  }
  for (const [userId, held] of await computePermissionsOfUsers(ctx, missing)) {
    ctx.permissionCache.set(userId, held);
    result.set(userId, held);
  }
  return result;
}

/** The users holding a permission now: administrators, its roles' members, its unexpired grants. */
export async function findUserIdsHolding(ctx: AppContext, permission: Permission): Promise<string[]> {
  const admins = await ctx.db.select({ id: users.id }).from(users).where(eq(users.isAdministrator, true));
  const fromRoles = await ctx.db
    .select({ id: userRoles.userId })
    .from(userRoles)
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
    .where(eq(rolePermissions.permission, permission));
  const fromGrants = await ctx.db
    .select({ id: userGrants.userId })
    .from(userGrants)
    .where(
      and(
        eq(userGrants.permission, permission),
        or(isNull(userGrants.expiresAt), gt(userGrants.expiresAt, new Date())),
      ),
    );
  return [...new Set([...admins, ...fromRoles, ...fromGrants].map((row) => row.id))];
}

/** Roles' permissions ∪ unexpired grants of each user (every permission for administrators). */
async function computePermissionsOfUsers(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<Map<string, Permission[]>> {
  const result = new Map<string, Permission[]>();
  if (userIds.length === 0) return result;
  const ids = [...new Set(userIds)];
  const found = await ctx.db
    .select({ id: users.id, isAdministrator: users.isAdministrator })
    .from(users)
    .where(inArray(users.id, ids));
  const fromRoles = await ctx.db
    .select({ userId: userRoles.userId, permission: rolePermissions.permission })
    .from(userRoles)
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
    .where(inArray(userRoles.userId, ids));
  const fromGrants = await ctx.db
    .select({ userId: userGrants.userId, permission: userGrants.permission })
    .from(userGrants)
    .where(
      and(
        inArray(userGrants.userId, ids),
        or(isNull(userGrants.expiresAt), gt(userGrants.expiresAt, new Date())),
      ),
    );
  const held = new Map<string, Set<string>>();
  for (const row of [...fromRoles, ...fromGrants]) {
    const names = held.get(row.userId) ?? new Set<string>();
    names.add(row.permission);
    held.set(row.userId, names);
  }
  for (const user of found) {
    const names = held.get(user.id);
    result.set(
      user.id,
      user.isAdministrator ? [...PERMISSIONS] : PERMISSIONS.filter((name) => names?.has(name) === true),
    );
  }
  return result;
}

/**
 * When each of these permissions ends for a user, if they hold it: `null` when nothing ends it
 * (an administrator, a role, a grant without end), else the latest end of their unexpired grants;
 * absent when they hold it by no role and no unexpired grant (it ended a moment ago).
 * A lease lasts no longer than what it entitles (docs/licensing.md, "The lease format").
 */
export async function findPermissionEnds(
  ctx: AppContext,
  userId: string,
  names: readonly Permission[],
): Promise<Map<Permission, Date | null>> {
  const ends = new Map<Permission, Date | null>();
  const held = new Set(await getUserPermissions(ctx, userId));
  const wanted = names.filter((name) => held.has(name));
  if (wanted.length === 0) return ends;
  const [user] = await ctx.db
    .select({ isAdministrator: users.isAdministrator })
    .from(users)
    .where(eq(users.id, userId));
  const fromRoles = await ctx.db
    .selectDistinct({ permission: rolePermissions.permission })
    .from(userRoles)
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
    .where(and(eq(userRoles.userId, userId), inArray(rolePermissions.permission, wanted)));
  const grants = await ctx.db
    .select({ permission: userGrants.permission, expiresAt: userGrants.expiresAt })
    .from(userGrants)
    .where(
      and(
        eq(userGrants.userId, userId),
        inArray(userGrants.permission, wanted),
        or(isNull(userGrants.expiresAt), gt(userGrants.expiresAt, new Date())),
      ),
    );
  const endless = new Set<string>(fromRoles.map((row) => row.permission));
  for (const name of wanted) {
    const own = grants.filter((grant) => grant.permission === name);
    if (user?.isAdministrator || endless.has(name) || own.some((grant) => grant.expiresAt === null))
      ends.set(name, null);
    // No unexpired grant (the last one ended since `held` was read): not held, never "no end".
    else if (own.length > 0)
      ends.set(name, new Date(Math.max(...own.map((grant) => grant.expiresAt!.getTime()))));
  }
  return ends;
}

export async function hasPermissions(
  ctx: AppContext,
  userId: string,
  required: readonly Permission[],
): Promise<boolean> {
  const held = await getUserPermissions(ctx, userId);
  return required.every((name) => held.includes(name));
}

/** Drops a user's cached permissions when the change of roles, grants or ban commits. */
export function invalidateUserPermissions(tx: TxContext, userId: string): void {
  tx.events.emit('user.changed', { userId });
}

/** The roles of each given user, for the user object. */
export async function findRolesOfUsers(
  ctx: AppContext,
  userIds: string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const result = new Map<string, { id: string; name: string }[]>();
  if (userIds.length === 0) return result;
  const rows = await ctx.db
    .select({ userId: userRoles.userId, id: roles.id, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inArray(userRoles.userId, userIds));
  for (const row of rows) {
    const list = result.get(row.userId) ?? [];
    list.push({ id: row.id, name: row.name });
    result.set(row.userId, list);
  }
  return result;
}

/** Grants a permission directly, optionally until a date (packages and staff use this). */
export async function grantPermission(
  ctx: AppContext,
  input: {
    id: string;
    userId: string;
    permission: Permission;
    expiresAt: Date | null;
    source: 'manual' | 'order';
    sourceId?: string | null;
    createdById?: string | null;
  },
): Promise<void> {
  await ctx.db.insert(userGrants).values({
    id: input.id,
    userId: input.userId,
    permission: input.permission,
    expiresAt: input.expiresAt,
    source: input.source,
    sourceId: input.sourceId ?? null,
    createdById: input.createdById ?? null,
  });
}

/** Removes the grants a source gave (a refunded order); returns how many were removed. */
export async function revokeGrantsOfSource(
  ctx: AppContext,
  input: { source: 'manual' | 'order'; sourceId: string },
): Promise<number> {
  const removed = await ctx.db
    .delete(userGrants)
    .where(and(eq(userGrants.source, input.source), eq(userGrants.sourceId, input.sourceId)))
    .returning({ id: userGrants.id });
  return removed.length;
}

/** Moves the end date of an existing grant (`null`: no end); answers the grant as stored. */
export async function setGrantExpiry(
  ctx: AppContext,
  grantId: string,
  expiresAt: Date | null,
): Promise<GrantRow> {
  const [row] = await ctx.db
    .update(userGrants)
    .set({ expiresAt })
    .where(eq(userGrants.id, grantId))
    .returning();
  return row!;
}

/** Removes grants: one by id, or every grant of a user for one permission. */
export async function removeGrants(
  ctx: AppContext,
  which: { grantId: string } | { userId: string; permission: Permission },
): Promise<void> {
  await ctx.db
    .delete(userGrants)
    .where(
      'grantId' in which
        ? eq(userGrants.id, which.grantId)
        : and(eq(userGrants.userId, which.userId), eq(userGrants.permission, which.permission)),
    );
}

/** Users holding a grant that expired in (from, to]: their permissions shrank with no event to say so. */
export async function findUsersWithGrantsExpiredBetween(
  ctx: AppContext,
  from: Date,
  to: Date,
): Promise<string[]> {
  const rows = await ctx.db
    .selectDistinct({ userId: userGrants.userId })
    .from(userGrants)
    .where(and(gt(userGrants.expiresAt, from), lte(userGrants.expiresAt, to)));
  return rows.map((row) => row.userId);
}

/** Either bot permission lets the bot run (a package may grant only one of them): decision 201. */
const BOT_PERMISSIONS: readonly Permission[] = ['can_useGathering', 'can_useTreasure'];

export function canRunBot(held: readonly Permission[]): boolean {
  return BOT_PERMISSIONS.some((name) => held.includes(name));
}
