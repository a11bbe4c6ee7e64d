import type { AdminSession } from '@bot/contracts';
import { desc, eq, inArray } from 'drizzle-orm';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { findRolesOfUsers, invalidateUserPermissions } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import {
  mailSecurityNotice,
  removeTwoFactor,
  resendConfirmation,
  revokeSessions,
  sessions,
} from '../auth/index.ts';
import { revokeBotSessions, unbindPc } from '../bots/index.ts';
import { assertMayGivePermissions, assertMayManageUser } from '../permissions-admin/index.ts';
import { permissionsOfRoles, replaceUserRoles, roles } from '../roles/index.ts';
import {
  getUserById,
  lockUser,
  markActivated,
  setBan,
  type UserRow,
  updateDiscordId,
} from '../users/index.ts';

/** Staff actions on one account (activation, ban, roles, Discord, PC, sessions), each audited. */

/** Runs a staff action on one account in a transaction, once the actor is known to outrank it. */
function onManagedUser<T>(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor },
  action: (tx: TxContext, user: UserRow) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx, async (tx) => {
    const user = await lockUser(tx, input.userId);
    await assertMayManageUser(tx, { actorId: input.actor.id, target: user });
    return action(tx, user);
  });
}

export async function activateUserByStaff(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor },
): Promise<void> {
  await onManagedUser(ctx, input, async (tx, user) => {
    if (user.activatedAt) throw new AppError('ALREADY_ACTIVATED');
    await markActivated(tx, user.id);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.activate',
      target: { type: 'user', id: user.id, label: user.username },
      before: { activated: false },
      after: { activated: true },
    });
  });
}

/** Mails a new activation link to an account still waiting for activation. */
export function resendActivationByStaff(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor },
): Promise<void> {
  return onManagedUser(ctx, input, async (tx, user) => {
    if (user.activatedAt) throw new AppError('ALREADY_ACTIVATED');
    if (user.bannedAt) throw new AppError('USER_BANNED');
    await resendConfirmation(tx, user.username, input.actor);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.resend_activation',
      target: { type: 'user', id: user.id, label: user.username },
      after: { email: user.email },
    });
  });
}

/**
 * Bans a user: sets the ban and ends every web and bot session in the same transaction; after the
 * commit `user.banned` makes every node drop the user's sockets and bot at once.
 */
export async function banUser(
  ctx: AppContext,
  input: { userId: string; reason: string; actor: AuditActor & { id: string } },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const user = await lockUser(tx, input.userId);
    if (user.id === input.actor.id) throw new AppError('BAN_SELF');
    if (user.isAdministrator) throw new AppError('BAN_ADMINISTRATOR');
    await assertMayManageUser(tx, { actorId: input.actor.id, target: user });
    if (user.bannedAt) throw new AppError('ALREADY_BANNED');
    await setBan(tx, user.id, { reason: input.reason });
    const revoked = await revokeSessions(tx, { userId: user.id, banned: true });
    await revokeBotSessions(tx, { userId: user.id });
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.ban',
      target: { type: 'user', id: user.id, label: user.username },
      before: { banned: false },
      after: { banned: true, reason: input.reason, revokedSessions: revoked.length },
    });
    tx.events.emit('user.banned', { userId: user.id });
    invalidateUserPermissions(tx, user.id);
  });
}

export async function unbanUser(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor },
): Promise<void> {
  await onManagedUser(ctx, input, async (tx, user) => {
    if (!user.bannedAt) throw new AppError('NOT_BANNED');
    await setBan(tx, user.id, null);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.unban',
      target: { type: 'user', id: user.id, label: user.username },
      before: { banned: true, reason: user.banReason },
      after: { banned: false },
    });
    invalidateUserPermissions(tx, user.id);
  });
}

/** Replaces the roles of a user; their permissions change on their next request and sockets. */
export async function setUserRoles(
  ctx: AppContext,
  input: { userId: string; roleIds: string[]; actor: AuditActor },
): Promise<void> {
  const roleIds = [...new Set(input.roleIds)];
  await inTransaction(ctx, async (tx) => {
    const user = await lockUser(tx, input.userId);
    const before = (await findRolesOfUsers(tx, [user.id])).get(user.id) ?? [];
    // Roles added or removed may carry staff permissions: the actor must hold them (decision 404).
    const changedRoleIds = [
      ...roleIds.filter((id) => !before.some((role) => role.id === id)),
      ...before.filter((role) => !roleIds.includes(role.id)).map((role) => role.id),
    ];
    if (changedRoleIds.length) {
      const carried = await permissionsOfRoles(tx, changedRoleIds);
      await assertMayGivePermissions(tx, input.actor.id, [...carried.values()].flat());
    }
    const chosen = roleIds.length
      ? await tx.db.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.id, roleIds))
      : [];
    if (chosen.length !== roleIds.length) throw new AppError('UNKNOWN_ROLE');
    await assertMayManageUser(tx, { actorId: input.actor.id, target: user });
    await replaceUserRoles(tx, user.id, roleIds);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.roles',
      target: { type: 'user', id: user.id, label: user.username },
      before: { roles: before.map((role) => role.name).sort() },
      after: { roles: chosen.map((role) => role.name).sort() },
    });
    invalidateUserPermissions(tx, user.id);
  });
}

export async function setUserDiscordId(
  ctx: AppContext,
  input: { userId: string; discordId: string | null; actor: AuditActor },
): Promise<void> {
  await onManagedUser(ctx, input, async (tx, user) => {
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.discord',
      target: { type: 'user', id: user.id, label: user.username },
      before: { discordId: user.discordId },
      after: { discordId: input.discordId },
    });
    await updateDiscordId(tx, user.id, input.discordId);
  });
}

/** Unbinds the user's PC without the cooldown, and without spending the customer's own reset. */
export async function resetUserHwidByStaff(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor & { id: string; username: string } },
): Promise<void> {
  await onManagedUser(ctx, input, async (tx, user) => {
    const { hwid } = user;
    if (!hwid) throw new AppError('HWID_NOT_BOUND');
    await unbindPc(tx, { user: { ...user, hwid }, actor: input.actor, resetAt: user.hwidResetAt });
  });
}

/**
 * Removes the authenticator of someone who lost it and their recovery codes. Their sessions end: the
 * next sign-in is with the password alone, by the owner, who can enrol again.
 */
export async function resetTwoFactorByStaff(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor },
): Promise<void> {
  await onManagedUser(ctx, input, async (tx, user) => {
    if (!(await removeTwoFactor(tx, user.id))) throw new AppError('TWO_FACTOR_NOT_ENABLED');
    await revokeSessions(tx, { userId: user.id });
    await mailSecurityNotice(tx, user, { kind: 'two_factor_reset' });
    await writeAudit(tx, {
      actor: input.actor,
      action: 'two_factor.reset',
      target: { type: 'user', id: user.id, label: user.username },
      before: { enabled: true },
      after: { enabled: false },
    });
    tx.events.emit('sessions.changed', { userId: user.id });
  });
}

export async function listUserSessions(ctx: AppContext, userId: string): Promise<AdminSession[]> {
  await getUserById(ctx, userId);
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt))
    .limit(200);
  const now = Date.now();
  return rows.map((row) => ({
    id: row.id,
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    isActive: row.revokedAt === null && row.expiresAt.getTime() > now,
  }));
}

/** Ends one session of a user, or all of them. */
export async function revokeUserSessions(
  ctx: AppContext,
  input: { userId: string; sessionId?: string; actor: AuditActor },
): Promise<number> {
  return onManagedUser(ctx, input, async (tx, user) => {
    const revoked = await revokeSessions(tx, {
      userId: user.id,
      ...(input.sessionId ? { sessionIds: [input.sessionId] } : {}),
    });
    if (input.sessionId && revoked.length === 0) throw new AppError('SESSION_NOT_FOUND');
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.sessions_revoke',
      target: { type: 'user', id: user.id, label: user.username },
      after: { sessionIds: revoked },
    });
    return revoked.length;
  });
}
