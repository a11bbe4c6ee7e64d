import {
  isStaffPermission,
  PERMISSION_DESCRIPTIONS,
  PERMISSIONS,
  type Permission,
  type PermissionDetail,
  type PermissionGrant,
  type PermissionSummary,
  permissionLabel,
} from '@bot/contracts';
import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import {
  getUserPermissions,
  grantPermission,
  invalidateUserPermissions,
  removeGrants,
  setGrantExpiry,
} from '../access/access.service.ts';
import { type GrantRow, userGrants } from '../access/access.table.ts';
import { assertRankForWrite } from '../access/staff-rank.ts';
import { type AuditActor, writeAudit } from '../audit/audit.service.ts';
import { rolePermissions, roles } from '../roles/roles.table.ts';
import { findUserByLogin, getUserById } from '../users/users.service.ts';
import { users } from '../users/users.table.ts';

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
    throw new AppError('FORBIDDEN', {
      message: `Vous ne pouvez pas accorder ou retirer une permission que vous n'avez pas : ${missing.map(permissionLabel).join(', ')}.`,
      details: { missing },
    });
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
  const user = input.userId
    ? await getUserById(ctx, input.userId)
    : await findUserByLogin(ctx, input.username ?? '');
  if (!user) throw new AppError('NOT_FOUND', { message: 'Utilisateur introuvable.' });
  await assertMayManageUser(ctx, { actorId: input.actor.id, target: user });
  await assertMayGivePermissions(ctx, input.actor.id, [input.permission]);
  // Bot permissions a staff member gives themselves are legitimate (testing the bot) but told apart.
  const isSelf = user.id === input.actor.id;
  const id = newId();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  const grant = await inTransaction(ctx, async (tx) => {
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
    return toGrant(row!, user.username);
  });
  invalidateUserPermissions(ctx, user.id);
  return grant;
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
  if (!row) throw new AppError('NOT_FOUND', { message: 'Permission accordée introuvable.' });
  return row;
}

/** Checks made before the transaction: PGlite runs one session, so no `ctx.db` call may wait inside one. */
async function assertMayChangeGrant(
  ctx: AppContext,
  input: { grantId: string; userId?: string; actor: AuditActor },
): Promise<void> {
  const { grant } = await getGrant(ctx, input.grantId, input.userId);
  await assertMayManageUser(ctx, {
    actorId: input.actor.id,
    target: await getUserById(ctx, grant.userId),
  });
  await assertMayGivePermissions(ctx, input.actor.id, [grant.permission]);
}

/** Moves the end date of a grant (extend, shorten, or remove the end). */
export async function updateGrant(
  ctx: AppContext,
  input: { grantId: string; userId?: string; expiresAt: string | null; actor: AuditActor },
): Promise<PermissionGrant> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  await assertMayChangeGrant(ctx, input);
  const result = await inTransaction(ctx, async (tx) => {
    const { grant, username } = await getGrant(tx, input.grantId, input.userId);
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
    return toGrant(updated, username);
  });
  invalidateUserPermissions(ctx, result.userId);
  return result;
}

/** Removes a direct grant. */
export async function deleteGrant(
  ctx: AppContext,
  input: { grantId: string; userId?: string; actor: AuditActor },
): Promise<void> {
  await assertMayChangeGrant(ctx, input);
  const userId = await inTransaction(ctx, async (tx) => {
    const { grant, username } = await getGrant(tx, input.grantId, input.userId);
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
    return grant.userId;
  });
  invalidateUserPermissions(ctx, userId);
}
