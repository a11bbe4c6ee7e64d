import {
  type AdminUser,
  type AdminUserDetail,
  type AdminUsersQuery,
  BOT_PERMISSIONS,
  type HourlyPoint,
  type Permission,
} from '@bot/contracts';
import { and, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import { likePattern, orderOf, type PageTotal, pageOf, pageTotal } from '../../core/admin-list.ts';
import { hourOf, toHourlyPoints, windowStart } from '../../core/time-series.ts';
import {
  findOutrankingUserIds,
  getUserPermissions,
  outrankedByCondition,
  userGrants,
} from '../access/index.ts';
import { hasTwoFactorEnabled } from '../auth/index.ts';
import { lastCountedUnbindKind } from '../pcs/index.ts';
import { findGrantsOfUsers } from '../permissions-admin/index.ts';
import { rolePermissions, roles, userRoles } from '../roles/index.ts';
import { getUserById, type UserRow, users } from '../users/index.ts';

/** Which of the given hwids have a bot online (the real-time layer's shared state store). */
export async function onlineHwids(ctx: AppContext, hwids: string[]): Promise<Set<string>> {
  if (hwids.length === 0) return new Set();
  try {
    const states = await Promise.all(hwids.map((hwid) => ctx.live.botState(hwid)));
    return new Set(states.flatMap((state) => (state?.online ? [state.hwid] : [])));
  } catch (error) {
    ctx.log.warn({ err: error }, 'lecture de la présence des bots en échec');
    return new Set();
  }
}

/** `exists (subquery)`: drizzle's `exists()` does not parenthesise raw SQL. */
const existsRaw = (query: SQL): SQL => sql`exists (${query})`;

/** `users.id in (subquery)`: under an OR, PostgreSQL hashes the subquery once (`exists` ran per user). */
const idIn = (query: SQL): SQL => sql`${users.id} in (${query})`;

/** Which users a reader may find by their private fields: those they outrank (decision 404). */
export const searchableBy = (ctx: AppContext, reader: { id: string }) =>
  outrankedByCondition(ctx, { actorId: reader.id, userId: users.id, isAdministrator: users.isAdministrator });

/** Text searches matching more users than this answer an estimated total (core/admin-list.ts). */
const SEARCH_EXACT_TOTAL_UP_TO = 1000;

/**
 * The list's filters. `privateSearchable`: which rows the text search may match by e-mail, Discord
 * id or hwid (those the reader outranks, decision 404); the others by their username only.
 */
export function userFilterOf(
  query: Partial<AdminUsersQuery>,
  privateSearchable: SQL | undefined,
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(
      or(
        ilike(users.username, pattern),
        and(
          privateSearchable,
          or(ilike(users.email, pattern), ilike(users.discordId, pattern), ilike(users.hwid, pattern)),
        ),
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
        idIn(
          sql`select ${userGrants.userId} from ${userGrants} where ${userGrants.permission} = ${query.permission} and (${userGrants.expiresAt} is null or ${userGrants.expiresAt} > now())`,
        ),
        idIn(
          sql`select ${userRoles.userId} from ${userRoles} inner join ${rolePermissions} on ${rolePermissions.roleId} = ${userRoles.roleId} where ${rolePermissions.permission} = ${query.permission}`,
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

type UserExtras = Pick<AdminUser, 'roles' | 'subscriptions'>;
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/** Which users a fragment below covers, as a condition on a `user_id` column. */
type UsersCovered = (userId: PgColumn) => SQL;

/** Roles of the covered users: `(user_id, id, name)` rows. */
export const rolesOfUsers = (covered: UsersCovered): SQL =>
  sql`select ${userRoles.userId} as user_id, ${roles.id} as id, ${roles.name} as name from ${userRoles}
      inner join ${roles} on ${roles.id} = ${userRoles.roleId} where ${covered(userRoles.userId)}`;

/**
 * Active bot subscriptions of the covered users: `(user_id, permission, expires_at)` rows, one per
 * user and permission with its furthest end (null = no end).
 */
export const subscriptionsOfUsers = (covered: UsersCovered): SQL =>
  sql`select ${userGrants.userId} as user_id, ${userGrants.permission} as permission,
             case when bool_or(${userGrants.expiresAt} is null) then null else max(${userGrants.expiresAt}) end as expires_at
      from ${userGrants}
      where ${covered(userGrants.userId)} and ${inArray(userGrants.permission, [...BOT_PERMISSIONS])}
        and (${userGrants.expiresAt} is null or ${userGrants.expiresAt} > now())
      group by ${userGrants.userId}, ${userGrants.permission}`;

/** Roles and subscriptions of the given users, in one query whatever their number. */
async function extrasOf(ctx: AppContext, ids: string[]): Promise<Map<string, UserExtras>> {
  if (ids.length === 0) return new Map();
  const result = await ctx.db.execute(sql`
    select ids.id,
      coalesce((select json_agg(json_build_object('id', r.id, 'name', r.name) order by r.name)
                from (${rolesOfUsers((userId) => sql`${userId} = ids.id`)}) as r), '[]') as roles,
      coalesce((select json_agg(json_build_object('permission', s.permission, 'expiresAt', s.expires_at)
                                order by s.permission)
                from (${subscriptionsOfUsers((userId) => sql`${userId} = ids.id`)}) as s), '[]') as subscriptions
    from unnest(string_to_array(${ids.join(',')}, ',')::uuid[]) as ids(id)`);
  const { rows } = result as unknown as { rows: { id: string; roles: unknown; subscriptions: unknown }[] };
  return new Map(
    rows.map((row) => [
      row.id,
      {
        roles: json<AdminUser['roles']>(row.roles),
        subscriptions: json<{ permission: Permission; expiresAt: string | null }[]>(row.subscriptions).map(
          (subscription) => ({
            permission: subscription.permission,
            expiresAt: subscription.expiresAt && new Date(subscription.expiresAt).toISOString(),
          }),
        ),
      },
    ]),
  );
}

/**
 * What a reader outranked by an account reads of it in the list: its identity, status and roles,
 * never its e-mail, PC, Discord id, ban reason or purchases (docs/decisions/404, reads).
 */
function identityOnly(user: AdminUser): AdminUser {
  return {
    ...user,
    email: '',
    banReason: null,
    subscriptions: [],
    hwid: null,
    discordId: null,
    isBotOnline: false,
  };
}

/** Rows of the user list with roles, subscriptions (active bot permissions) and bot presence. */
async function toAdminUsers(ctx: AppContext, rows: UserRow[]): Promise<AdminUser[]> {
  const extras = await extrasOf(
    ctx,
    rows.map((row) => row.id),
  );
  const online = await onlineHwids(
    ctx,
    rows.flatMap((row) => (row.hwid ? [row.hwid] : [])),
  );
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    email: row.email,
    activated: row.activatedAt !== null,
    isAdministrator: row.isAdministrator,
    bannedAt: row.bannedAt?.toISOString() ?? null,
    banReason: row.banReason,
    roles: extras.get(row.id)?.roles ?? [],
    subscriptions: extras.get(row.id)?.subscriptions ?? [],
    hwid: row.hwid,
    discordId: row.discordId,
    isBotOnline: row.hwid ? online.has(row.hwid) : false,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * One page of the user list. Its total is exact, except for a text search matching more than
 * SEARCH_EXACT_TOTAL_UP_TO users: then the planner's estimate, flagged `totalIsEstimate`.
 */
export async function listAdminUsers(
  ctx: AppContext,
  query: AdminUsersQuery,
  reader: { id: string },
): Promise<{ data: AdminUser[] } & PageTotal> {
  const where = userFilterOf(query, await searchableBy(ctx, reader));
  const { limit, offset } = pageOf(query);
  const rows = await ctx.db
    .select()
    .from(users)
    .where(where)
    .orderBy(orderOf(query.sort, USER_SORTS, desc(users.createdAt)), desc(users.id))
    .limit(limit)
    .offset(offset);
  const total = await pageTotal(ctx.db, {
    from: users,
    where,
    offset,
    limit,
    rows: rows.length,
    exactUpTo: query.q ? SEARCH_EXACT_TOTAL_UP_TO : undefined,
  });
  const outranking = await findOutrankingUserIds(ctx, {
    actorId: reader.id,
    userIds: rows.map((row) => row.id),
  });
  const data = (await toAdminUsers(ctx, rows)).map((user) =>
    outranking.has(user.id) ? identityOnly(user) : user,
  );
  return { data, ...total };
}

export async function getAdminUserDetail(ctx: AppContext, userId: string): Promise<AdminUserDetail> {
  const row = await getUserById(ctx, userId);
  const [base] = await toAdminUsers(ctx, [row]);
  const grants = (await findGrantsOfUsers(ctx, [userId])).get(userId) ?? [];
  return {
    ...base!,
    referral: row.referral,
    hwidResetAt: row.hwidResetAt?.toISOString() ?? null,
    hwidResetKind: await lastCountedUnbindKind(ctx, userId, row.hwidResetAt),
    grants,
    permissions: await getUserPermissions(ctx, userId),
    twoFactorEnabled: await hasTwoFactorEnabled(ctx, userId),
  };
}

/** Activates an account by hand (the user never got or used the mail). */

/** Accounts created in each hour of the last `days` days: the dashboard's chart. */
export async function registrationsPerHour(ctx: AppContext, days: number): Promise<HourlyPoint[]> {
  const hour = hourOf(users.createdAt);
  const rows = await ctx.db
    .select({ hour, value: count() })
    .from(users)
    .where(gte(users.createdAt, windowStart(days, ctx.clock.now())))
    .groupBy(hour)
    .orderBy(hour);
  return toHourlyPoints(rows);
}
