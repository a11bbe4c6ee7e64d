import {
  isStaffPermission,
  PERMISSION_DESCRIPTIONS,
  PERMISSIONS,
  type Permission,
  type PermissionDetail,
  type PermissionGrant,
  type PermissionSummary,
} from '@bot/contracts';
import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import {
  assertRankForWrite,
  type GrantRow,
  getUserPermissions,
  grantPermission,
  invalidateUserPermissions,
  removeGrants,
  setGrantExpiry,
  userGrants,
} from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { rolePermissions, roles } from '../roles/index.ts';
import { findUserByLogin, getUserById, users } from '../users/index.ts';

const isGrantActive = (expiresAt: Date | null): boolean =>
  expiresAt === null || expiresAt.getTime() > Date.now();

function toGrant(row: GrantRow, username: string): PermissionGrant {
  return {
    id: row.id,
    userId: row.userId,
    username,
    permission: row.permission as Permission,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    source: row.source,
    sourceId: row.sourceId,
    createdAt: row.createdAt.toISOString(),
    isActive: isGrantActive(row.expiresAt),
  };
}

const activeGrant = () => or(isNull(userGrants.expiresAt), gt(userGrants.expiresAt, new Date()));

/** Grants of some users (all of them, expired ones included), newest first. */
export async function findGrantsOfUsers(
  ctx: AppContext,
  userIds: string[],
): Promise<Map<string, PermissionGrant[]>> {
  const result = new Map<string, PermissionGrant[]>();
  if (userIds.length === 0) return result;
  const rows = await ctx.db
    .select({ grant: userGrants, username: users.username })
    .from(userGrants)
    .innerJoin(users, eq(users.id, userGrants.userId))
    .where(inArray(userGrants.userId, userIds))
    .orderBy(desc(userGrants.createdAt));
  for (const row of rows) {
    const list = result.get(row.grant.userId) ?? [];
    list.push(toGrant(row.grant, row.username));
    result.set(row.grant.userId, list);
  }
  return result;
}

/** The 13 permissions with the roles holding them and how many users hold them directly. */
export async function listPermissionSummaries(ctx: AppContext): Promise<PermissionSummary[]> {
  const holders = await ctx.db
    .select({ permission: rolePermissions.permission, id: roles.id, name: roles.name })
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
    .orderBy(asc(roles.name));
  const counts = await ctx.db
    .select({
      permission: userGrants.permission,
      total: sql<number>`count(distinct ${userGrants.userId})::int`,
    })
    .from(userGrants)
    .where(activeGrant())
    .groupBy(userGrants.permission);
  return PERMISSIONS.map((name) => ({
    name,
    description: PERMISSION_DESCRIPTIONS[name],
    roles: holders
      .filter((row) => row.permission === name)
      .map(({ id, name: roleName }) => ({ id, name: roleName })),
    activeGrantCount: counts.find((row) => row.permission === name)?.total ?? 0,
  }));
}

/** One permission with its roles and every direct grant (active first). */
export async function getPermissionDetail(ctx: AppContext, name: Permission): Promise<PermissionDetail> {
  const summary = (await listPermissionSummaries(ctx)).find((item) => item.name === name);
  if (!summary) throw new AppError('NOT_FOUND');
  const rows = await ctx.db
    .select({ grant: userGrants, username: users.username })
    .from(userGrants)
    .innerJoin(users, eq(users.id, userGrants.userId))
    .where(eq(userGrants.permission, name))
    .orderBy(desc(userGrants.createdAt))
    .limit(1000);
  const grants = rows.map((row) => toGrant(row.grant, row.username));
  grants.sort((a, b) => Number(b.isActive) - Number(a.isActive));
  return { ...summary, grants };
}

/**
 * No privilege escalation: a staff member may give or take away a `can_manage*` permission (directly
 * or through a role) only if they hold it; bot permissions (`can_use*`) are customers' and any staff
 * member of the page may give them. Administrators hold every permission.
 */
export async function assertMayGivePermissions(
  ctx: AppContext,
  actorId: string | null,
  wanted: readonly string[],
): Promise<void> {
  const staffOnly = [...new Set(wanted)].filter(isStaffPermission);
  if (staffOnly.length === 0) return;
  const held = actorId ? await getUserPermissions(ctx, actorId) : [];
  const missing = staffOnly.filter((name) => !held.includes(name as Permission));
  if (missing.length) {
    throw new AppError('PERMISSION_NOT_HELD', { details: { missing } });
  }
}

/**
 * Staff rank: a staff member acts on a user (ban, sessions, two-factor, roles, grants…) only if the
 * user's staff permissions (`can_manage*`) are all theirs too; only administrators act on
 * administrators, and administrators on anyone. Bot permissions (`can_use*`) give no rank: they are
 * customers'. Inside a transaction, pass it as `db` (PGlite has one connection).
 */
export async function assertMayManageUser(
  ctx: AppContext,
  input: { actorId: string | null; target: { id: string; isAdministrator: boolean } },
): Promise<void> {
  // The same rule answers reads (staff-rank.ts, assertMayReadUser).
  await assertRankForWrite(ctx, input);
}

/** Gives a permission to a user directly, until a date or without end; audited with the change. */
export async function createGrant(
  ctx: AppContext,
  input: {
    userId?: string;
    username?: string;
    permission: Permission;
    expiresAt: string | null;
    actor: AuditActor;
  },
): Promise<PermissionGrant> {
  const id = newId();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  return inTransaction(ctx, async (tx) => {
    const user = input.userId
      ? await getUserById(tx, input.userId)
      : await findUserByLogin(tx, input.username ?? '');
    if (!user) throw new AppError('USER_NOT_FOUND');
    await assertMayManageUser(tx, { actorId: input.actor.id, target: user });
    await assertMayGivePermissions(tx, input.actor.id, [input.permission]);
    // Bot permissions a staff member gives themselves are legitimate (testing the bot) but told apart.
    const isSelf = user.id === input.actor.id;
    await grantPermission(tx, {
      id,
      userId: user.id,
      permission: input.permission,
      expiresAt,
      source: 'manual',
      createdById: input.actor.id,
    });
    const [row] = await tx.db.select().from(userGrants).where(eq(userGrants.id, id));
    await writeAudit(tx, {
      actor: input.actor,
      action: isSelf ? 'grant.create_self' : 'grant.create',
      target: { type: 'user', id: user.id, label: user.username },
      after: { grantId: id, permission: input.permission, expiresAt: expiresAt?.toISOString() ?? null },
    });
    invalidateUserPermissions(tx, user.id);
    return toGrant(row!, user.username);
  });
}

async function getGrant(
  ctx: AppContext,
  grantId: string,
  userId?: string,
): Promise<{ grant: GrantRow; username: string }> {
  const [row] = await ctx.db
    .select({ grant: userGrants, username: users.username })
    .from(userGrants)
    .innerJoin(users, eq(users.id, userGrants.userId))
    .where(and(eq(userGrants.id, grantId), userId ? eq(userGrants.userId, userId) : undefined));
  if (!row) throw new AppError('PERMISSION_GRANT_NOT_FOUND');
  return row;
}

/** A grant a staff member may change or remove (decision 404), read and checked in the change's transaction. */
async function getChangeableGrant(
  tx: TxContext,
  input: { grantId: string; userId?: string; actor: AuditActor },
): Promise<{ grant: GrantRow; username: string }> {
  const found = await getGrant(tx, input.grantId, input.userId);
  const target = await getUserById(tx, found.grant.userId);
  await assertMayManageUser(tx, { actorId: input.actor.id, target });
  await assertMayGivePermissions(tx, input.actor.id, [found.grant.permission]);
  return found;
}

/** Moves the end date of a grant (extend, shorten, or remove the end). */
export async function updateGrant(
  ctx: AppContext,
  input: { grantId: string; userId?: string; expiresAt: string | null; actor: AuditActor },
): Promise<PermissionGrant> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  return inTransaction(ctx, async (tx) => {
    const { grant, username } = await getChangeableGrant(tx, input);
    const updated = await setGrantExpiry(tx, grant.id, expiresAt);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'grant.update',
      target: { type: 'user', id: grant.userId, label: username },
      before: {
        grantId: grant.id,
        permission: grant.permission,
        expiresAt: grant.expiresAt?.toISOString() ?? null,
      },
      after: { grantId: grant.id, permission: grant.permission, expiresAt: expiresAt?.toISOString() ?? null },
    });
    invalidateUserPermissions(tx, grant.userId);
    return toGrant(updated, username);
  });
}

/** Removes a direct grant. */
export async function deleteGrant(
  ctx: AppContext,
  input: { grantId: string; userId?: string; actor: AuditActor },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const { grant, username } = await getChangeableGrant(tx, input);
    await removeGrants(tx, { grantId: grant.id });
    await writeAudit(tx, {
      actor: input.actor,
      action: 'grant.delete',
      target: { type: 'user', id: grant.userId, label: username },
      before: {
        grantId: grant.id,
        permission: grant.permission,
        expiresAt: grant.expiresAt?.toISOString() ?? null,
        source: grant.source,
      },
    });
    invalidateUserPermissions(tx, grant.userId);
  });
}
