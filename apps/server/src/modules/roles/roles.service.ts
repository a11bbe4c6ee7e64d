import {
  PERMISSION_DESCRIPTIONS,
  PERMISSIONS,
  type Permission,
  type Role,
  type RoleDetail,
  type RolesQuery,
} from '@bot/contracts';
import { and, asc, count, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { inBatches, likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import { AppError } from '../../core/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { users } from '../users/index.ts';
import { permissions, rolePermissions, roles, userRoles } from './roles.table.ts';

/** `exists (subquery)`: drizzle's `exists()` does not parenthesise raw SQL. */
const existsRaw = (query: SQL): SQL => sql`exists (${query})`;

type RoleRow = typeof roles.$inferSelect;

const memberCount = sql<number>`(select count(*)::int from ${userRoles} where ${userRoles.roleId} = ${roles.id})`;

export async function permissionsOfRoles(
  ctx: AppContext,
  roleIds: string[],
): Promise<Map<string, Permission[]>> {
  const result = new Map<string, Permission[]>();
  if (roleIds.length === 0) return result;
  const rows = await ctx.db
    .select()
    .from(rolePermissions)
    .where(inArray(rolePermissions.roleId, roleIds))
    .orderBy(asc(rolePermissions.permission));
  for (const row of rows) {
    const list = result.get(row.roleId) ?? [];
    list.push(row.permission as Permission);
    result.set(row.roleId, list);
  }
  return result;
}

async function toRoles(ctx: AppContext, rows: (RoleRow & { memberCount: number })[]): Promise<Role[]> {
  const held = await permissionsOfRoles(
    ctx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    permissions: held.get(row.id) ?? [],
    memberCount: row.memberCount,
    createdAt: row.createdAt.toISOString(),
  }));
}

function roleFilterOf(query: Partial<RolesQuery>): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(or(ilike(roles.name, pattern), ilike(roles.description, pattern)));
  }
  if (query.permission) {
    conditions.push(
      existsRaw(
        sql`select 1 from ${rolePermissions} where ${rolePermissions.roleId} = ${roles.id} and ${rolePermissions.permission} = ${query.permission}`,
      ),
    );
  }
  return and(...conditions);
}

const ROLE_SORTS = { name: roles.name, createdAt: roles.createdAt, memberCount };

export async function listRoles(
  ctx: AppContext,
  query: RolesQuery,
): Promise<{ data: Role[]; total: number }> {
  const where = roleFilterOf(query);
  const { limit, offset } = pageOf(query);
  const rows = await ctx.db
    .select({ ...rolesColumns(), memberCount })
    .from(roles)
    .where(where)
    .orderBy(orderOf(query.sort, ROLE_SORTS, asc(roles.name)))
    .limit(limit)
    .offset(offset);
  const [counted] = await ctx.db.select({ total: count() }).from(roles).where(where);
  return { data: await toRoles(ctx, rows), total: counted?.total ?? 0 };
}

export function streamRoles(ctx: AppContext, query: Partial<RolesQuery>): AsyncIterable<Role> {
  const where = roleFilterOf(query);
  return inBatches(async (offset, limit) =>
    toRoles(
      ctx,
      await ctx.db
        .select({ ...rolesColumns(), memberCount })
        .from(roles)
        .where(where)
        .orderBy(asc(roles.name), asc(roles.id))
        .limit(limit)
        .offset(offset),
    ),
  );
}

function rolesColumns() {
  return { id: roles.id, name: roles.name, description: roles.description, createdAt: roles.createdAt };
}

/** A role with its permissions and members; throws NOT_FOUND. */
export async function getRoleDetail(ctx: AppContext, roleId: string): Promise<RoleDetail> {
  const [row] = await ctx.db
    .select({ ...rolesColumns(), memberCount })
    .from(roles)
    .where(eq(roles.id, roleId));
  if (!row) throw new AppError('ROLE_NOT_FOUND');
  const [role] = await toRoles(ctx, [row]);
  const members = await ctx.db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(eq(userRoles.roleId, roleId))
    .orderBy(asc(users.username))
    .limit(1000);
  return { ...role!, members };
}

/** All roles, small: for pickers. */
export async function listAllRoles(ctx: AppContext): Promise<{ id: string; name: string }[]> {
  return ctx.db.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.name));
}

export async function assertNameFree(ctx: AppContext, name: string, exceptId?: string): Promise<void> {
  const [taken] = await ctx.db
    .select({ id: roles.id })
    .from(roles)
    .where(sql`lower(${roles.name}) = lower(${name})`);
  if (taken && taken.id !== exceptId) throw new AppError('ROLE_NAME_TAKEN');
}

export async function memberIdsOf(ctx: AppContext, roleId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(eq(userRoles.roleId, roleId));
  return rows.map((row) => row.userId);
}

/** Replaces the roles a user holds (the caller checks the actor may, and audits). */
export async function replaceUserRoles(ctx: AppContext, userId: string, roleIds: string[]): Promise<void> {
  await ctx.db.delete(userRoles).where(eq(userRoles.userId, userId));
  if (roleIds.length) await ctx.db.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
}

/** Maps the unique index on role names to ROLE_NAME_TAKEN (two staff naming a role at once). */
export async function withNameGuard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, 'roles_name_idx')) throw new AppError('ROLE_NAME_TAKEN');
    throw error;
  }
}

/** Inserts the 13 permission names with their French descriptions (idempotent). */
export async function seedPermissions(ctx: AppContext): Promise<void> {
  await ctx.db
    .insert(permissions)
    .values(PERMISSIONS.map((name) => ({ name, description: PERMISSION_DESCRIPTIONS[name] })))
    .onConflictDoNothing();
}

/** Inserts a role with its permissions (the caller checks the actor may, audits, and maps a taken name). */
export async function insertRole(
  ctx: AppContext,
  role: { id: string; name: string; description: string; permissions: readonly Permission[] },
): Promise<void> {
  await ctx.db.insert(roles).values({ id: role.id, name: role.name, description: role.description });
  await setRolePermissions(ctx, role.id, role.permissions);
}

/** Renames or describes a role (the caller checks, audits, and maps a taken name). */
export async function updateRoleRow(
  ctx: AppContext,
  roleId: string,
  patch: { name?: string; description?: string },
): Promise<void> {
  await ctx.db.update(roles).set(patch).where(eq(roles.id, roleId));
}

/** Replaces the permissions a role carries (the caller checks and audits). */
export async function setRolePermissions(
  ctx: AppContext,
  roleId: string,
  granted: readonly Permission[],
): Promise<void> {
  await ctx.db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  const distinct = [...new Set(granted)];
  if (distinct.length)
    await ctx.db.insert(rolePermissions).values(distinct.map((permission) => ({ roleId, permission })));
}

/** Deletes a role (the caller checks nobody holds it, and audits). */
export async function deleteRoleRow(ctx: AppContext, roleId: string): Promise<void> {
  await ctx.db.delete(roles).where(eq(roles.id, roleId));
}
