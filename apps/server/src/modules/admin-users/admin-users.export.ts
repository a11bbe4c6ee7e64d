import { type AdminUsersQuery, permissionLabel } from '@bot/contracts';
import { and, gt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import { keysetPages, spreadsheetDates } from '../../core/admin-list.ts';
import { findOutrankingUserIds } from '../access/index.ts';
import { users } from '../users/index.ts';
import {
  onlineHwids,
  rolesOfUsers,
  searchableBy,
  subscriptionsOfUsers,
  userFilterOf,
} from './admin-users.service.ts';

/** Columns of `GET /admin/users/export.csv`, one line per user. */
export const USER_EXPORT_HEADER = [
  'id',
  "nom d'utilisateur",
  'e-mail',
  'activé',
  'banni le',
  'raison du bannissement',
  'rôles',
  'abonnements',
  'hwid',
  'discord',
  'bot en ligne',
  'créé le',
];

/** Users per query: the export reads 5,000 users with their roles and subscriptions at a time. */
const PAGE = 5000;

/** A timestamp as `Date.toISOString()` writes it (UTC, milliseconds), formatted by the database. */
const iso = (column: SQL | PgColumn): SQL =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface ExportRow {
  id: string;
  username: string;
  email: string;
  activated: boolean;
  banned_at: string | null;
  ban_reason: string | null;
  roles: string | null;
  /** The user's grants, by permission name: `[permission, end (ISO) or null]`. */
  subscriptions: [string, string | null][] | null;
  hwid: string | null;
  discord_id: string | null;
  created_at: string;
}

/**
 * Every user matching the list's filters as CSV cells (USER_EXPORT_HEADER), a page at a time, keyset
 * on the UUID v7 id so every page costs the same however large the table. One query per page: the
 * page of users, then the roles and subscriptions of its id range aggregated and joined by the
 * database (a range scan of each index, not one look-up per user: docs/decisions/405).
 */
export function userExportPages(
  ctx: AppContext,
  query: Partial<AdminUsersQuery>,
  reader: { id: string },
): AsyncIterable<string[][]> {
  // Read once, at the first page: whom the reader may find by e-mail, Discord id or hwid.
  let filter: Promise<SQL | undefined> | undefined;
  const toDate = spreadsheetDates(query.tz);
  // As the roles export: the permissions' labels, not their `can_` names (decision 107).
  const subscriptionsCell = (grants: ExportRow['subscriptions']) =>
    (grants ?? [])
      .map(([name, ends]) => `${permissionLabel(name)} (${ends ? `jusqu’au ${toDate(ends)}` : 'sans fin'})`)
      .join(', ');
  return keysetPages(
    async (after: string | undefined, limit) => {
      filter ??= searchableBy(ctx, reader).then((searchable) => userFilterOf(query, searchable));
      const where = await filter;
      // The page's users have ids in (after, last]: so do their roles and grants.
      const covered = (userId: PgColumn) =>
        after
          ? sql`${userId} > ${after} and ${userId} <= (select id from last)`
          : sql`${userId} <= (select id from last)`;
      const result = await ctx.db.execute(sql`
        with page as materialized (
          select ${users.id} as id, ${users.username} as username, ${users.email} as email,
                 ${users.activatedAt} is not null as activated, ${iso(users.bannedAt)} as banned_at,
                 ${users.banReason} as ban_reason, ${users.hwid} as hwid, ${users.discordId} as discord_id,
                 ${iso(users.createdAt)} as created_at
          from ${users} where ${and(where, after ? gt(users.id, after) : undefined) ?? sql`true`}
          order by ${users.id} limit ${limit}),
        last as (select id from page order by id desc limit 1),
        r as (select user_id, string_agg(name, ' ' order by name) as roles
              from (${rolesOfUsers(covered)}) as r group by user_id),
        s as (select user_id, json_agg(json_build_array(permission, ${iso(sql`expires_at`)})
                                       order by permission) as subscriptions
              from (${subscriptionsOfUsers(covered)}) as s group by user_id)
        select page.*, r.roles, s.subscriptions from page
        left join r on r.user_id = page.id left join s on s.user_id = page.id
        order by page.id`);
      const rows = (result as unknown as { rows: ExportRow[] }).rows;
      const online = await onlineHwids(
        ctx,
        rows.flatMap((row) => (row.hwid ? [row.hwid] : [])),
      );
      // Accounts that outrank the reader: identity, status and roles only (as the list, decision 404).
      const outranking = await findOutrankingUserIds(ctx, {
        actorId: reader.id,
        userIds: rows.map((row) => row.id),
      });
      return rows.map((row) => {
        const shown = !outranking.has(row.id);
        return [
          row.id,
          row.username,
          shown ? row.email : '',
          row.activated ? 'oui' : 'non',
          row.banned_at ?? '',
          shown ? (row.ban_reason ?? '') : '',
          row.roles ?? '',
          shown ? subscriptionsCell(row.subscriptions) : '',
          shown ? (row.hwid ?? '') : '',
          shown ? (row.discord_id ?? '') : '',
          shown && row.hwid && online.has(row.hwid) ? 'oui' : 'non',
          row.created_at,
        ];
      });
    },
    (row) => row[0]!,
    PAGE,
  );
}
