import {
  type BotState,
  ONLINE_BOT_SORTS,
  ONLINE_SESSION_WINDOW_MINUTES,
  type OnlineBot,
  type OnlineBotsQuery,
  type OnlineSession,
  type OnlineSessionsQuery,
  versionMatches,
} from '@bot/contracts';
import { and, count, desc, eq, gt, ilike, isNull, or, sql } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import { AppError } from '../../core/errors.ts';
import { findOutrankingUserIds, outrankedByCondition } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { revokeSessions, sessions } from '../auth/index.ts';
import { assertMayManageUser } from '../permissions-admin/index.ts';
import { getUserById, users } from '../users/index.ts';

type OnlineBotSort = (typeof ONLINE_BOT_SORTS)[number];

function toOnlineBot(state: BotState): OnlineBot {
  return {
    hwid: state.hwid,
    ownerId: state.owner.id,
    ownerUsername: state.owner.username,
    version: state.version,
    connectedAt: state.connectedAt,
    lastSeenAt: state.lastSeenAt,
    accounts: state.accounts.length,
    accountNames: state.accounts.map((account) => account.name),
    paused: state.paused === true,
  };
}

/** Connected bot agents (from the real-time layer's state store), searched, sorted and paged in memory. */
export async function listUsersOnlineBots(
  ctx: AppContext,
  query: OnlineBotsQuery,
  reader: { id: string },
): Promise<{ data: OnlineBot[]; total: number }> {
  const needle = query.q?.trim().toLowerCase();
  let bots = (await ctx.live.onlineBots()).filter((state) => state.online).map(toOnlineBot);
  if (query.version) bots = bots.filter((bot) => versionMatches(bot.version, query.version ?? ''));
  if (needle) {
    // By game account only the bots of owners the reader outranks (decision 404).
    const hidden = await findOutrankingUserIds(ctx, {
      actorId: reader.id,
      userIds: bots.map((bot) => bot.ownerId),
    });
    bots = bots.filter(
      (bot) =>
        bot.ownerUsername.toLowerCase().includes(needle) ||
        bot.hwid.toLowerCase().includes(needle) ||
        bot.version.includes(needle) ||
        (!hidden.has(bot.ownerId) && bot.accountNames.some((name) => name.toLowerCase().includes(needle))),
    );
  }
  const sort = query.sort ?? '-connectedAt';
  const descending = sort.startsWith('-');
  const field = (descending ? sort.slice(1) : sort) as OnlineBotSort;
  if (!ONLINE_BOT_SORTS.includes(field)) {
    throw new AppError('SORT_UNKNOWN', { details: { field, allowed: [...ONLINE_BOT_SORTS] } });
  }
  const direction = descending ? -1 : 1;
  bots.sort((a, b) => {
    const left = a[field];
    const right = b[field];
    const order =
      typeof left === 'number' && typeof right === 'number'
        ? left - right
        : String(left).localeCompare(String(right), 'fr');
    return order * direction || a.hwid.localeCompare(b.hwid);
  });
  const { limit, offset } = pageOf(query);
  const page = bots.slice(offset, offset + limit);
  // An owner who outranks the reader: the bot's handle and figures, not its game accounts (decision 404).
  const outranking = await findOutrankingUserIds(ctx, {
    actorId: reader.id,
    userIds: page.map((bot) => bot.ownerId),
  });
  return {
    data: page.map((bot) => (outranking.has(bot.ownerId) ? { ...bot, accountNames: [] } : bot)),
    total: bots.length,
  };
}

/** Signed-in web sessions: not revoked, not expired, seen within the online window. */
export async function listUsersOnlineSessions(
  ctx: AppContext,
  query: OnlineSessionsQuery,
  reader: { id: string },
): Promise<{ data: OnlineSession[]; total: number }> {
  const now = new Date();
  const seenSince = new Date(now.getTime() - ONLINE_SESSION_WINDOW_MINUTES * 60_000);
  const conditions = [
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
    gt(sessions.lastSeenAt, seenSince),
  ];
  if (query.q?.trim()) {
    const pattern = likePattern(query.q.trim());
    // By address only the sessions of accounts the reader outranks (decision 404).
    const searchable = await outrankedByCondition(ctx, {
      actorId: reader.id,
      userId: sessions.userId,
      isAdministrator: users.isAdministrator,
    });
    conditions.push(
      or(
        ilike(users.username, pattern),
        and(searchable, ilike(sql`coalesce(${sessions.ip}, '')`, pattern)),
      ) as never,
    );
  }
  const where = and(...conditions);
  const order = orderOf(
    query.sort,
    {
      username: users.username,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    },
    desc(sessions.lastSeenAt),
  );
  const { limit, offset } = pageOf(query);
  const [rows, totals] = await Promise.all([
    ctx.db
      .select({ session: sessions, username: users.username })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(where)
      .orderBy(order, desc(sessions.id))
      .limit(limit)
      .offset(offset),
    ctx.db
      .select({ total: count() })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(where),
  ]);
  const socketsByUser = new Map<string, number>();
  for (const viewer of await ctx.live.connectedViewers()) {
    socketsByUser.set(viewer.userId, (socketsByUser.get(viewer.userId) ?? 0) + 1);
  }
  // Sessions of an account that outranks the reader: whose and when, not where from (decision 404).
  const outranking = await findOutrankingUserIds(ctx, {
    actorId: reader.id,
    userIds: rows.map(({ session }) => session.userId),
  });
  return {
    data: rows.map(({ session, username }) => ({
      id: session.id,
      userId: session.userId,
      username,
      ip: outranking.has(session.userId) ? null : session.ip,
      userAgent: outranking.has(session.userId) ? null : session.userAgent,
      createdAt: session.createdAt.toISOString(),
      lastSeenAt: session.lastSeenAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
      liveSockets: socketsByUser.get(session.userId) ?? 0,
    })),
    total: totals[0]?.total ?? 0,
  };
}

/**
 * Disconnects a connected bot agent (it receives BOT_KICKED and stops); audited. The rank is checked
 * and the audit written in one transaction; the kick, a live effect on a socket that may sit on
 * another node, follows the commit, so a refused or failed kick leaves the bot running and no
 * transaction waits on the cluster. A bot that left between the two is offline as the entry says
 * (docs/decisions/009-use-cases-own-their-effects.md).
 */
export async function kickOnlineBot(
  ctx: AppContext,
  input: { hwid: string; actor: AuditActor },
): Promise<void> {
  const state = await ctx.live.botState(input.hwid);
  if (!state?.online) throw new AppError('BOT_NOT_CONNECTED');
  await inTransaction(ctx, async (tx) => {
    const owner = await getUserById(tx, state.owner.id);
    await assertMayManageUser(tx, { actorId: input.actor.id, target: owner });
    await writeAudit(tx, {
      actor: input.actor,
      action: 'bot.kick',
      target: { type: 'bot', id: input.hwid, label: state.owner.username },
      before: {
        online: true,
        version: state.version,
        accounts: state.accounts.map((account) => account.name),
      },
      after: { online: false },
    });
  });
  await ctx.live.kickBot(input.hwid);
}

/** Ends one signed-in web session (its sockets close through the `sessions.revoked` event); audited. */
export async function revokeOnlineSession(
  ctx: AppContext,
  input: { sessionId: string; actor: AuditActor },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select({
        userId: sessions.userId,
        username: users.username,
        ip: sessions.ip,
        isAdministrator: users.isAdministrator,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(eq(sessions.id, input.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())),
      );
    if (!row) throw new AppError('SESSION_NOT_FOUND');
    await assertMayManageUser(tx, { actorId: input.actor.id, target: { ...row, id: row.userId } });
    await revokeSessions(tx, { userId: row.userId, sessionIds: [input.sessionId] });
    await writeAudit(tx, {
      actor: input.actor,
      action: 'session.revoke',
      target: { type: 'user', id: row.userId, label: row.username },
      before: { sessionId: input.sessionId, ip: row.ip, active: true },
      after: { sessionId: input.sessionId, active: false },
    });
  });
}
