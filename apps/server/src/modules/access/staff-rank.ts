import { isStaffPermission, PERMISSIONS, type Permission } from '@bot/contracts';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import { AppError, isAppError } from '../../core/errors.ts';
import { rolePermissions, userRoles } from '../roles/index.ts';
import { findUserByHwid, findUserById, getUserById, users } from '../users/index.ts';
import { getPermissionsOfUsers, getUserPermissions } from './access.service.ts';
import { userGrants } from './access.table.ts';

/** What the staff rank compares of a person (docs/decisions/404-no-privilege-escalation.md). */
interface Rank {
  id: string;
  isAdministrator: boolean;
  held: readonly Permission[];
}

/** Why the actor does not outrank the target: an administrator, or the staff permissions they lack. */
type RankRefusal = { administrator: true } | { missing: Permission[] };

/**
 * The staff rank (decision 404), for writes and reads alike: administrators outrank everyone;
 * only administrators reach an administrator; anyone reaches themselves; otherwise the target's
 * staff permissions (`can_manage*`) must all be the actor's too. Bot permissions give no rank.
 */
function rankRefusal(actor: Rank | undefined, target: Rank): RankRefusal | null {
  if (actor?.isAdministrator) return null;
  if (target.isAdministrator) return { administrator: true };
  if (actor?.id === target.id) return null;
  const missing = target.held.filter((name) => isStaffPermission(name) && !actor?.held.includes(name));
  return missing.length ? { missing } : null;
}

/**
 * Why `actorId` may not act on or read `target`, or null when they may. Reads the actor's and the
 * target's permissions: inside a transaction, pass it (PGlite runs one session).
 */
async function rankRefusalOf(
  ctx: AppContext,
  input: { actorId: string | null; target: { id: string; isAdministrator: boolean } },
): Promise<RankRefusal | null> {
  const actor = input.actorId ? await findUserById(ctx, input.actorId) : undefined;
  const actorRank = actor && {
    id: actor.id,
    isAdministrator: actor.isAdministrator,
    held: await getUserPermissions(ctx, actor.id),
  };
  return rankRefusal(actorRank, { ...input.target, held: await getUserPermissions(ctx, input.target.id) });
}

/** The refusal of a write or a read: the same codes for both (decision 404). */
function refusalError(refusal: RankRefusal): AppError {
  if ('administrator' in refusal) return new AppError('ADMINISTRATOR_ONLY');
  return new AppError('OUTRANKED', { details: { missing: refusal.missing } });
}

/** Throws FORBIDDEN unless the actor outranks the target of a staff action (decision 404). */
export async function assertRankForWrite(
  ctx: AppContext,
  input: { actorId: string | null; target: { id: string; isAdministrator: boolean } },
): Promise<void> {
  const refusal = await rankRefusalOf(ctx, input);
  if (refusal) throw refusalError(refusal);
}

/**
 * May this actor read this user's personal data (detail, sessions, audit, PCs, orders, whitelist,
 * bot timeline, commands, journal)? The rule of writes (decision 404); FORBIDDEN when not,
 * NOT_FOUND when the user does not exist.
 */
export async function assertMayReadUser(
  ctx: AppContext,
  input: { actorId: string | null; userId: string },
): Promise<void> {
  const target = await getUserById(ctx, input.userId);
  const refusal = await rankRefusalOf(ctx, { actorId: input.actorId, target });
  if (refusal) throw refusalError(refusal);
}

/**
 * Of the given users, those the actor may not read (decision 404): lists and exports show them by
 * their identity only. Two queries for the actor, three for the users whatever their number.
 */
export async function findOutrankingUserIds(
  ctx: AppContext,
  input: { actorId: string | null; userIds: readonly (string | null | undefined)[] },
): Promise<Set<string>> {
  const ids = [...new Set(input.userIds.filter((id): id is string => typeof id === 'string'))];
  if (ids.length === 0) return new Set();
  const actor = input.actorId ? await findUserById(ctx, input.actorId) : undefined;
  if (actor?.isAdministrator) return new Set();
  const actorRank = actor && {
    id: actor.id,
    isAdministrator: false,
    held: await getUserPermissions(ctx, actor.id),
  };
  const targets = await ctx.db
    .select({ id: users.id, isAdministrator: users.isAdministrator })
    .from(users)
    .where(inArray(users.id, ids));
  const held = await getPermissionsOfUsers(
    ctx,
    targets.map((target) => target.id),
  );
  return new Set(
    targets
      .filter((target) => rankRefusal(actorRank, { ...target, held: held.get(target.id) ?? [] }))
      .map((target) => target.id),
  );
}

/**
 * May this actor read the data of a PC's bot (timeline, commands, journal, live state)? They are its
 * owner's: who has the PC bound now, else `formerOwnerId` (who last had it), under the rank of
 * assertMayReadUser. A PC nobody ever had guards nobody.
 */
export async function assertMayReadBotOf(
  ctx: AppContext,
  input: { actorId: string; hwid: string; formerOwnerId?: string | null },
): Promise<void> {
  const ownerId = (await findUserByHwid(ctx, input.hwid))?.id ?? input.formerOwnerId;
  if (ownerId) await assertMayReadUser(ctx, { actorId: input.actorId, userId: ownerId });
}

/** assertMayReadBotOf as a yes or no, for the sockets (refused with FORBIDDEN by their caller). */
export async function mayReadBotOf(
  ctx: AppContext,
  input: { actorId: string; hwid: string },
): Promise<boolean> {
  try {
    await assertMayReadBotOf(ctx, input);
    return true;
  } catch (error) {
    if (isAppError(error, 'OUTRANKED') || isAppError(error, 'ADMINISTRATOR_ONLY')) return false;
    throw error;
  }
}

/**
 * The same rank as an SQL condition on a users row, for searches on private fields (e-mail, Discord
 * id, hwid, address): true where the actor outranks the user, so an account above them is found by
 * its username only. rankRefusal in SQL: not an administrator, and no staff permission the actor
 * lacks, by an unexpired grant or a role; the actor themselves always. Undefined for an
 * administrator, who outranks everyone.
 */
export async function outrankedByCondition(
  ctx: AppContext,
  input: { actorId: string; userId: PgColumn | SQL; isAdministrator: PgColumn | SQL },
): Promise<SQL | undefined> {
  const actor = await findUserById(ctx, input.actorId);
  if (actor?.isAdministrator) return undefined;
  const held = actor ? await getUserPermissions(ctx, actor.id) : [];
  const lacked = PERMISSIONS.filter((name) => isStaffPermission(name) && !held.includes(name));
  const above = lacked.length
    ? sql`(exists (select 1 from ${userGrants} where ${userGrants.userId} = ${input.userId}
              and ${inArray(userGrants.permission, lacked)}
              and (${userGrants.expiresAt} is null or ${userGrants.expiresAt} > now()))
         or exists (select 1 from ${userRoles} inner join ${rolePermissions}
              on ${rolePermissions.roleId} = ${userRoles.roleId}
              where ${userRoles.userId} = ${input.userId} and ${inArray(rolePermissions.permission, lacked)}))`
    : sql`false`;
  return sql`(${input.userId} = ${input.actorId} or (not ${input.isAdministrator} and not ${above}))`;
}
