import {
  type AdminSession,
  type AdminUser,
  type AdminUserDetail,
  type AdminUsersQuery,
  BOT_PERMISSIONS,
  type Permission,
} from '@bot/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { inKeysetBatches, likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { findRolesOfUsers, getUserPermissions, invalidateUserPermissions } from '../access/access.service.ts';
import { rolePermissions, roles, userGrants, userRoles } from '../access/access.table.ts';
import { type AuditActor, writeAudit } from '../audit/audit.service.ts';
import { resendConfirmation } from '../auth/auth.service.ts';
import { revokeSessions } from '../auth/sessions.service.ts';
import { sessions } from '../auth/sessions.table.ts';
import { listBotHistory, mergeHistory } from '../bots/bots.history.ts';
import { resetHwid } from '../me/me.service.ts';
import {
  assertMayGivePermissions,
  assertMayManageUser,
  findGrantsOfUsers,
} from '../permissions-admin/permissions-admin.service.ts';
import { findBotState, findPendingBotHistory } from '../realtime/realtime.service.ts';
import { getUserById } from '../users/users.service.ts';
import { type UserRow, users } from '../users/users.table.ts';

/** Which of the given hwids have a bot online (the real-time layer's shared state store). */
async function onlineHwids(ctx: AppContext, hwids: string[]): Promise<Set<string>> {
  if (hwids.length === 0) return new Set();
  try {
    const states = await Promise.all(hwids.map((hwid) => findBotState(ctx, hwid)));
    return new Set(states.flatMap((state) => (state?.online ? [state.hwid] : [])));
  } catch (error) {
    ctx.log.warn({ err: error }, 'bot presence lookup failed');
    return new Set();
  }
}

/** The bot of a user as its owner sees it: live state (when online) and the last 24 h of history. */
export async function getUserBot(ctx: AppContext, userId: string) {
  const user = await getUserById(ctx.db, userId);
  if (!user.hwid) return { hwid: null, state: null, history: [] };
  const state = await findBotState(ctx, user.hwid).catch(() => undefined);
  const written = await listBotHistory(ctx.db, {
    userId,
    hwid: user.hwid,
    since: new Date(Date.now() - BOT_HISTORY_WINDOW_MS),
  });
  let pending: ReturnType<typeof findPendingBotHistory> = [];
  try {
    pending = findPendingBotHistory(ctx, userId, user.hwid);
  } catch {
    // no hub attached: nothing buffered
  }
  return {
    hwid: user.hwid,
    state: state?.owner.id === userId ? state : null,
    history: mergeHistory(written, pending),
  };
}

const BOT_HISTORY_WINDOW_MS = 24 * 3_600_000;

/** `exists (subquery)`: drizzle's `exists()` does not parenthesise raw SQL. */
const existsRaw = (query: SQL): SQL => sql`exists (${query})`;

const activeGrant = () => or(isNull(userGrants.expiresAt), gt(userGrants.expiresAt, new Date()));

function userFilterOf(query: Partial<AdminUsersQuery>): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(
      or(
        ilike(users.username, pattern),
        ilike(users.email, pattern),
        ilike(users.discordId, pattern),
        ilike(users.hwid, pattern),
      ),
    );
  }
  if (query.status === 'active') conditions.push(isNotNull(users.activatedAt), isNull(users.bannedAt));
  if (query.status === 'pending') conditions.push(isNull(users.activatedAt), isNull(users.bannedAt));
  if (query.status === 'banned') conditions.push(isNotNull(users.bannedAt));
  if (query.roleId) {
    conditions.push(
      existsRaw(
        sql`select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.roleId} = ${query.roleId}`,
      ),
    );
  }
  if (query.permission) {
    conditions.push(
      or(
        eq(users.isAdministrator, true),
        existsRaw(
          sql`select 1 from ${userGrants} where ${userGrants.userId} = ${users.id} and ${userGrants.permission} = ${query.permission} and (${userGrants.expiresAt} is null or ${userGrants.expiresAt} > now())`,
        ),
        existsRaw(
          sql`select 1 from ${userRoles} inner join ${rolePermissions} on ${rolePermissions.roleId} = ${userRoles.roleId} where ${userRoles.userId} = ${users.id} and ${rolePermissions.permission} = ${query.permission}`,
        ),
      ),
    );
  }
  return and(...conditions);
}

const USER_SORTS = {
  username: users.username,
  email: users.email,
  createdAt: users.createdAt,
  activated: users.activatedAt,
  bannedAt: users.bannedAt,
  hwid: users.hwid,
  discordId: users.discordId,
};

/** Rows of the user list with roles, subscriptions (active bot permissions) and bot presence. */
async function toAdminUsers(ctx: AppContext, db: DbOrTx, rows: UserRow[]): Promise<AdminUser[]> {
  const ids = rows.map((row) => row.id);
  const rolesOf = await findRolesOfUsers(db, ids);
  const grants = ids.length
    ? await db
        .select({
          userId: userGrants.userId,
          permission: userGrants.permission,
          expiresAt: userGrants.expiresAt,
        })
        .from(userGrants)
        .where(
          and(
            inArray(userGrants.userId, ids),
            inArray(userGrants.permission, [...BOT_PERMISSIONS]),
            activeGrant(),
          ),
        )
    : [];
  const online = await onlineHwids(
    ctx,
    rows.flatMap((row) => (row.hwid ? [row.hwid] : [])),
  );
  return rows.map((row) => {
    // One line per permission, with the furthest end (null = no end).
    const latest = new Map<string, Date | null>();
    for (const grant of grants) {
      if (grant.userId !== row.id) continue;
      const known = latest.get(grant.permission);
      if (known === undefined || (known !== null && (grant.expiresAt === null || grant.expiresAt > known)))
        latest.set(grant.permission, grant.expiresAt);
    }
    return {
      id: row.id,
      username: row.username,
      email: row.email,
      activated: row.activatedAt !== null,
      isAdministrator: row.isAdministrator,
      bannedAt: row.bannedAt?.toISOString() ?? null,
      banReason: row.banReason,
      roles: rolesOf.get(row.id) ?? [],
      subscriptions: [...latest].map(([permission, expiresAt]) => ({
        permission: permission as Permission,
        expiresAt: expiresAt?.toISOString() ?? null,
      })),
      hwid: row.hwid,
      discordId: row.discordId,
      isBotOnline: row.hwid ? online.has(row.hwid) : false,
      createdAt: row.createdAt.toISOString(),
    };
  });
}

export async function listAdminUsers(
  ctx: AppContext,
  query: AdminUsersQuery,
): Promise<{ data: AdminUser[]; total: number }> {
  const where = userFilterOf(query);
  const { limit, offset } = pageOf(query);
  const rows = await ctx.db
    .select()
    .from(users)
    .where(where)
    .orderBy(orderOf(query.sort, USER_SORTS, desc(users.createdAt)), desc(users.id))
    .limit(limit)
    .offset(offset);
  const [counted] = await ctx.db.select({ total: count() }).from(users).where(where);
  return { data: await toAdminUsers(ctx, ctx.db, rows), total: counted?.total ?? 0 };
}

/** Every user matching the filters, page by page (CSV export without a row cap). */
export function streamAdminUsers(ctx: AppContext, query: Partial<AdminUsersQuery>): AsyncIterable<AdminUser> {
  const where = userFilterOf(query);
  // Keyset on the UUID v7 id (creation order): every page costs the same, however large the table.
  return inKeysetBatches(
    async (after: string | undefined, limit) =>
      toAdminUsers(
        ctx,
        ctx.db,
        await ctx.db
          .select()
          .from(users)
          .where(and(where, after ? gt(users.id, after) : undefined))
          .orderBy(asc(users.id))
          .limit(limit),
      ),
    (user) => user.id,
  );
}

export async function getAdminUserDetail(ctx: AppContext, userId: string): Promise<AdminUserDetail> {
  const row = await getUserById(ctx.db, userId);
  const [base] = await toAdminUsers(ctx, ctx.db, [row]);
  const grants = (await findGrantsOfUsers(ctx.db, [userId])).get(userId) ?? [];
  return {
    ...base!,
    referral: row.referral,
    hwidResetAt: row.hwidResetAt?.toISOString() ?? null,
    grants,
    permissions: await getUserPermissions(ctx, userId),
  };
}

/** Activates an account by hand (the user never got or used the mail). */
export async function activateUserByStaff(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const user = await getUserById(tx, input.userId);
    await assertMayManageUser(tx, { actorId: input.actor.id, target: user });
    if (user.activatedAt) throw new AppError('ALREADY_ACTIVATED');
    const now = new Date();
    await tx.update(users).set({ activatedAt: now }).where(eq(users.id, user.id));
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
export async function resendActivationByStaff(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor },
): Promise<void> {
  const user = await getUserById(ctx.db, input.userId);
  if (user.activatedAt) throw new AppError('ALREADY_ACTIVATED');
  if (user.bannedAt) throw new AppError('ACCOUNT_BANNED', { message: 'Ce compte est banni.' });
  await resendConfirmation(ctx, user.username);
  await writeAudit(ctx.db, {
    actor: input.actor,
    action: 'user.resend_activation',
    target: { type: 'user', id: user.id, label: user.username },
    after: { email: user.email },
  });
}

/**
 * Bans a user: sets the ban, ends every web session in the same transaction, then tells the
 * real-time hub (`user.banned`) which drops the user's sockets and bot at once.
 */
export async function banUser(
  ctx: AppContext,
  input: { userId: string; reason: string; actor: AuditActor & { id: string } },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const user = await getUserById(tx, input.userId);
    if (user.id === input.actor.id)
      throw new AppError('BAN_FORBIDDEN', { message: 'Vous ne pouvez pas vous bannir vous-même.' });
    if (user.isAdministrator)
      throw new AppError('BAN_FORBIDDEN', { message: 'Un administrateur ne peut pas être banni.' });
    if (user.bannedAt) throw new AppError('ALREADY_BANNED');
    await tx
      .update(users)
      .set({ bannedAt: new Date(), banReason: input.reason })
      .where(eq(users.id, user.id));
    const revoked = await revokeSessions(ctx, tx, { userId: user.id, banned: true });
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.ban',
      target: { type: 'user', id: user.id, label: user.username },
      before: { banned: false },
      after: { banned: true, reason: input.reason, revokedSessions: revoked.length },
    });
  });
  ctx.events.emit('user.banned', { userId: input.userId });
  invalidateUserPermissions(ctx, input.userId);
}

export async function unbanUser(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const user = await getUserById(tx, input.userId);
    await assertMayManageUser(tx, { actorId: input.actor.id, target: user });
    if (!user.bannedAt) throw new AppError('NOT_BANNED');
    await tx.update(users).set({ bannedAt: null, banReason: null }).where(eq(users.id, user.id));
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.unban',
      target: { type: 'user', id: user.id, label: user.username },
      before: { banned: true, reason: user.banReason },
      after: { banned: false },
    });
  });
  invalidateUserPermissions(ctx, input.userId);
}

/** Replaces the roles of a user; their permissions change on their next request and sockets. */
export async function setUserRoles(
  ctx: AppContext,
  input: { userId: string; roleIds: string[]; actor: AuditActor },
): Promise<void> {
  const roleIds = [...new Set(input.roleIds)];
  // Roles added or removed may carry staff permissions: the actor must hold them (checked before
  // the transaction: PGlite runs one session, no `ctx.db` call may wait inside one).
  const current = (await findRolesOfUsers(ctx.db, [input.userId])).get(input.userId) ?? [];
  const changedRoleIds = [
    ...roleIds.filter((id) => !current.some((role) => role.id === id)),
    ...current.filter((role) => !roleIds.includes(role.id)).map((role) => role.id),
  ];
  if (changedRoleIds.length) {
    const carried = await ctx.db
      .select({ permission: rolePermissions.permission })
      .from(rolePermissions)
      .where(inArray(rolePermissions.roleId, changedRoleIds));
    await assertMayGivePermissions(
      ctx,
      input.actor.id,
      carried.map((row) => row.permission),
    );
  }
  await ctx.db.transaction(async (tx) => {
    const user = await getUserById(tx, input.userId);
    const chosen = roleIds.length
      ? await tx.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.id, roleIds))
      : [];
    if (chosen.length !== roleIds.length) throw new AppError('UNKNOWN_ROLE');
    const before = (await findRolesOfUsers(tx, [user.id])).get(user.id) ?? [];
    await assertMayManageUser(tx, { actorId: input.actor.id, target: user });
    await tx.delete(userRoles).where(eq(userRoles.userId, user.id));
    if (roleIds.length)
      await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId: user.id, roleId })));
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.roles',
      target: { type: 'user', id: user.id, label: user.username },
      before: { roles: before.map((role) => role.name).sort() },
      after: { roles: chosen.map((role) => role.name).sort() },
    });
  });
  invalidateUserPermissions(ctx, input.userId);
}

export async function setUserDiscordId(
  ctx: AppContext,
  input: { userId: string; discordId: string | null; actor: AuditActor },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const user = await getUserById(tx, input.userId);
    await assertMayManageUser(tx, { actorId: input.actor.id, target: user });
    await tx.update(users).set({ discordId: input.discordId }).where(eq(users.id, user.id));
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.discord',
      target: { type: 'user', id: user.id, label: user.username },
      before: { discordId: user.discordId },
      after: { discordId: input.discordId },
    });
  });
}

/** Unbinds the user's PC without the cooldown (the me domain writes the audit entry). */
export async function resetUserHwidByStaff(
  ctx: AppContext,
  input: { userId: string; actor: AuditActor & { id: string; username: string } },
): Promise<void> {
  await assertMayManageUser(ctx.db, {
    actorId: input.actor.id,
    target: await getUserById(ctx.db, input.userId),
  });
  await resetHwid(ctx, {
    userId: input.userId,
    ip: input.actor.ip,
    bypassCooldown: true,
    actor: { id: input.actor.id, username: input.actor.username },
  });
}

export async function listUserSessions(ctx: AppContext, userId: string): Promise<AdminSession[]> {
  await getUserById(ctx.db, userId);
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
  return ctx.db.transaction(async (tx) => {
    const user = await getUserById(tx, input.userId);
    await assertMayManageUser(tx, { actorId: input.actor.id, target: user });
    const revoked = await revokeSessions(ctx, tx, {
      userId: user.id,
      ...(input.sessionId ? { sessionIds: [input.sessionId] } : {}),
    });
    if (input.sessionId && revoked.length === 0)
      throw new AppError('NOT_FOUND', { message: 'Session introuvable ou déjà terminée.' });
    await writeAudit(tx, {
      actor: input.actor,
      action: 'user.sessions_revoke',
      target: { type: 'user', id: user.id, label: user.username },
      after: { sessionIds: revoked },
    });
    return revoked.length;
  });
}
