import {
  type AdminUser,
  type AdminUserDetail,
  type AdminUsersQuery,
  BOT_PERMISSIONS,
  type HourlyPoint,
  type Permission,
} from '@bot/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { inKeysetBatches, likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import { hourOf, toHourlyPoints, windowStart } from '../../core/time-series.ts';
import type { DbOrTx } from '../../db/client.ts';
import { findRolesOfUsers, getUserPermissions } from '../access/access.service.ts';
import { userGrants } from '../access/access.table.ts';
import { listBotHistory, mergeHistory } from '../bots/bots.history.ts';
import { findGrantsOfUsers } from '../permissions-admin/permissions-admin.service.ts';
import { findBotState, findPendingBotHistory } from '../realtime/realtime.service.ts';
import { rolePermissions, userRoles } from '../roles/roles.table.ts';
import { hasTwoFactorEnabled } from '../two-factor/two-factor.service.ts';
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
    twoFactorEnabled: await hasTwoFactorEnabled(ctx.db, userId),
  };
}

/** Activates an account by hand (the user never got or used the mail). */

/** Accounts created in each hour of the last `days` days: the dashboard's chart. */
export async function registrationsPerHour(db: DbOrTx, days: number): Promise<HourlyPoint[]> {
  const hour = hourOf(users.createdAt);
  const rows = await db
    .select({ hour, value: count() })
    .from(users)
    .where(gte(users.createdAt, windowStart(days)))
    .groupBy(hour)
    .orderBy(hour);
  return toHourlyPoints(rows);
}
