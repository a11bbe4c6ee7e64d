import type { Permission, Role, RoleDetail, RoleInput, RolesQuery, RoleUpdateInput } from '@bot/contracts';
import { and, asc, count, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { inBatches, likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { invalidateUserPermissions } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { assertMayGivePermissions } from '../permissions-admin/index.ts';
import { users } from '../users/index.ts';
import { rolePermissions, roles, userRoles } from './roles.table.ts';

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

async function assertNameFree(ctx: AppContext, name: string, exceptId?: string): Promise<void> {
  const [taken] = await ctx.db
    .select({ id: roles.id })
    .from(roles)
    .where(sql`lower(${roles.name}) = lower(${name})`);
  if (taken && taken.id !== exceptId) throw new AppError('ROLE_NAME_TAKEN');
}

async function memberIdsOf(ctx: AppContext, roleId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(eq(userRoles.roleId, roleId));
  return rows.map((row) => row.userId);
}

function auditView(role: RoleDetail) {
  return { name: role.name, description: role.description, permissions: role.permissions };
}

/** Replaces the roles a user holds (the caller checks the actor may, and audits). */
export async function replaceUserRoles(ctx: AppContext, userId: string, roleIds: string[]): Promise<void> {
  await ctx.db.delete(userRoles).where(eq(userRoles.userId, userId));
  if (roleIds.length) await ctx.db.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
}

async function withNameGuard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, 'roles_name_idx')) throw new AppError('ROLE_NAME_TAKEN');
    throw error;
  }
}

export async function createRole(
  ctx: AppContext,
  input: { role: RoleInput; actor: AuditActor },
): Promise<RoleDetail> {
  const name = input.role.name.trim();
  return withNameGuard(() =>
    inTransaction(ctx, async (tx) => {
      await assertMayGivePermissions(tx, input.actor.id, input.role.permissions ?? []);
      await assertNameFree(tx, name);
      const id = newId();
      await tx.db.insert(roles).values({ id, name, description: input.role.description ?? '' });
      const granted = [...new Set(input.role.permissions ?? [])];
      if (granted.length)
        await tx.db.insert(rolePermissions).values(granted.map((permission) => ({ roleId: id, permission })));
      const role = await getRoleDetail(tx, id);
      await writeAudit(tx, {
        actor: input.actor,
        action: 'role.create',
        target: { type: 'role', id, label: name },
        after: auditView(role),
      });
      return role;
    }),
  );
}

/** Renames, describes or sets the permissions of a role; members' permissions change at once. */
export async function updateRole(
  ctx: AppContext,
  input: { roleId: string; patch: RoleUpdateInput; actor: AuditActor },
): Promise<RoleDetail> {
  return withNameGuard(() =>
    inTransaction(ctx, async (tx) => {
      const before = await getRoleDetail(tx, input.roleId);
      const { name, description, permissions } = input.patch;
      // Adding or removing a staff permission on a role needs that permission (decision 404).
      if (permissions !== undefined) {
        await assertMayGivePermissions(tx, input.actor.id, [
          ...permissions.filter((p) => !before.permissions.includes(p)),
          ...before.permissions.filter((p) => !permissions.includes(p)),
        ]);
      }
      if (name !== undefined && name !== before.name) await assertNameFree(tx, name, input.roleId);
      if (name !== undefined || description !== undefined) {
        await tx.db
          .update(roles)
          .set({
            ...(name !== undefined ? { name } : {}),
            ...(description !== undefined ? { description } : {}),
          })
          .where(eq(roles.id, input.roleId));
      }
      if (permissions !== undefined) {
        await tx.db.delete(rolePermissions).where(eq(rolePermissions.roleId, input.roleId));
        const granted = [...new Set(permissions)];
        if (granted.length)
          await tx.db
            .insert(rolePermissions)
            .values(granted.map((permission) => ({ roleId: input.roleId, permission })));
      }
      const after = await getRoleDetail(tx, input.roleId);
      await writeAudit(tx, {
        actor: input.actor,
        action: 'role.update',
        target: { type: 'role', id: after.id, label: after.name },
        before: auditView(before),
        after: auditView(after),
      });
      // Members' permissions, and the role names their user object shows, changed.
      if (permissions !== undefined || name !== undefined)
        for (const userId of await memberIdsOf(tx, input.roleId)) invalidateUserPermissions(tx, userId);
      return after;
    }),
  );
}

/** Deletes a role nobody holds; a role still assigned is a 409. */
export async function deleteRole(
  ctx: AppContext,
  input: { roleId: string; actor: AuditActor },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const role = await getRoleDetail(tx, input.roleId);
    if (role.memberCount > 0) {
      throw new AppError('ROLE_IN_USE', { details: { memberCount: role.memberCount } });
    }
    await tx.db.delete(roles).where(eq(roles.id, input.roleId));
    await writeAudit(tx, {
      actor: input.actor,
      action: 'role.delete',
      target: { type: 'role', id: role.id, label: role.name },
      before: auditView(role),
    });
  });
}
