import type { RoleDetail, RoleInput, RoleUpdateInput } from '@bot/contracts';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { invalidateUserPermissions } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import {
  assertNameFree,
  deleteRoleRow,
  getRoleDetail,
  insertRole,
  memberIdsOf,
  setRolePermissions,
  updateRoleRow,
  withNameGuard,
} from '../roles/index.ts';
import { assertMayGivePermissions } from './permissions-admin.service.ts';

// Staff's use cases on roles: each checks the actor may give what the role carries (decision 404),
// writes through the roles module, which owns the tables, and audits, in one transaction. They sit
// here, above the permissions they check, while the roles' tables sit below them (decision 010).

function auditView(role: RoleDetail) {
  return { name: role.name, description: role.description, permissions: role.permissions };
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
      const permissions = input.role.permissions ?? [];
      await insertRole(tx, { id, name, description: input.role.description ?? '', permissions });
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
        await updateRoleRow(tx, input.roleId, {
          ...(name !== undefined ? { name } : {}),
          ...(description !== undefined ? { description } : {}),
        });
      }
      if (permissions !== undefined) await setRolePermissions(tx, input.roleId, permissions);
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
    await deleteRoleRow(tx, input.roleId);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'role.delete',
      target: { type: 'role', id: role.id, label: role.name },
      before: auditView(role),
    });
  });
}
