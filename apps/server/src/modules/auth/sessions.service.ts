import { describeUserAgent, type MySession } from '@bot/contracts';
import { and, desc, eq, gt, inArray, isNull, ne } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import type { SessionCache } from '../../core/caches.ts';
import { AppError } from '../../core/errors.ts';
import type { EventBus } from '../../core/events.ts';
import type { AuthenticatedSession } from '../../core/guards.ts';
import { hashSecret, newId, newSecret } from '../../core/ids.ts';
import { writeAudit } from '../audit/index.ts';
import { users } from '../users/index.ts';
import { type SessionRow, sessions } from './sessions.table.ts';
import { twoFactor } from './two-factor.table.ts';

/**
 * Every API call and socket checks its token: a short cache keeps that off SQL. A revocation drops
 * the entry at once on every node (`sessions.revoked` and `user.banned` reach them all); the TTL
 * bounds staleness while Redis, which carries those events, is unreachable.
 */
const SESSION_CACHE_TTL_MS = 10_000;
const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;
const TOUCH_BATCH_MS = 1_000;

/** Built once per app (app.ts): drops entries as revocations, bans and 2FA changes are announced. */
export function createSessionCache(events: EventBus): SessionCache {
  const byTokenHash = new LRUCache<string, AuthenticatedSession>({ max: 100_000, ttl: SESSION_CACHE_TTL_MS });
  const drop = (matches: (session: AuthenticatedSession) => boolean) => {
    for (const [key, value] of byTokenHash.entries()) if (matches(value)) byTokenHash.delete(key);
  };
  events.on('sessions.revoked', ({ sessionIds }) =>
    drop((session) => sessionIds.includes(session.sessionId)),
  );
  events.on('user.banned', ({ userId }) => drop((session) => session.userId === userId));
  events.on('sessions.changed', ({ userId }) => drop((session) => session.userId === userId));
  return {
    byTokenHash,
    recentlyTouched: new LRUCache<string, true>({ max: 100_000, ttl: LAST_SEEN_WRITE_INTERVAL_MS }),
    toTouch: new Set(),
  };
}

/**
 * True when the account has signed in before, never from a device described like this one (its
 * browser and system in words: a browser update is no new device). The first sign-in is none.
 */
export async function isUnknownDevice(
  ctx: AppContext,
  userId: string,
  userAgent: string | null,
): Promise<boolean> {
  const earlier = await ctx.db
    .select({ userAgent: sessions.userAgent })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt))
    .limit(200);
  const device = describeUserAgent(userAgent);
  return earlier.length > 0 && !earlier.some((row) => describeUserAgent(row.userAgent) === device);
}

/** Opens a session; the clear token is answered once and only its hash is stored. */
export async function createSession(
  ctx: AppContext,
  input: { userId: string; ip: string | null; userAgent: string | null; secondFactorAt?: Date },
): Promise<{ token: string; session: SessionRow }> {
  const token = newSecret(32);
  const [session] = await ctx.db
    .insert(sessions)
    .values({
      id: newId(),
      userId: input.userId,
      tokenHash: hashSecret(token),
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
      expiresAt: new Date(Date.now() + ctx.config.sessionTtlMs),
      secondFactorAt: input.secondFactorAt ?? null,
    })
    .returning();
  return { token, session: session! };
}

/**
 * The live session behind a bearer token, or undefined when unknown, expired, revoked or banned,
 * or still waiting for its second factor (unless `includePending`: the one route that takes the code).
 * Every signed-in request asks: a cached session is answered without a query or a batch.
 */
export async function findSessionByToken(
  ctx: AppContext,
  token: string,
  options: { includePending?: boolean } = {},
): Promise<AuthenticatedSession | undefined> {
  const tokenHash = hashSecret(token);
  let found = ctx.sessionCache.byTokenHash.get(tokenHash);
  if (!found) {
    found = (await readSessions(ctx, [tokenHash])).get(tokenHash);
    if (found) ctx.sessionCache.byTokenHash.set(tokenHash, found);
  }
  return usableSession(ctx, tokenHash, found, options);
}

/**
 * `findSessionByToken` for several tokens, those the cache lacks read in one query (the sockets of
 * every open page reconnecting after a restart: one query per batch, `SocketAuthenticator`).
 */
export async function findSessionsByTokens(
  ctx: AppContext,
  tokens: readonly string[],
  options: { includePending?: boolean } = {},
): Promise<(AuthenticatedSession | undefined)[]> {
  const cache = ctx.sessionCache.byTokenHash;
  const hashes = tokens.map(hashSecret);
  // Answered from this map, not from the cache: a cached entry may leave it while the others are
  // read (its TTL, the LRU bound, an announced change), and a valid page would be refused.
  const known = new Map<string, AuthenticatedSession>();
  for (const hash of hashes) {
    const cached = cache.get(hash);
    if (cached) known.set(hash, cached);
  }
  const missing = hashes.filter((hash) => !known.has(hash));
  if (missing.length > 0) {
    for (const [hash, session] of await readSessions(ctx, missing)) {
      cache.set(hash, session);
      known.set(hash, session);
    }
  }
  return hashes.map((tokenHash) => usableSession(ctx, tokenHash, known.get(tokenHash), options));
}

/** The session if it may be used now (recording its activity), else undefined. */
function usableSession(
  ctx: AppContext,
  tokenHash: string,
  found: AuthenticatedSession | undefined,
  options: { includePending?: boolean },
): AuthenticatedSession | undefined {
  if (!found) return undefined;
  if (found.secondFactorPending && !options.includePending) return undefined;
  if (found.expiresAt.getTime() <= Date.now()) {
    ctx.sessionCache.byTokenHash.delete(tokenHash);
    return undefined;
  }
  touchSession(ctx, found.sessionId);
  return found;
}

/** The sessions behind token hashes, by hash; revoked ones and those of banned users left out. */
async function readSessions(
  ctx: AppContext,
  tokenHashes: readonly string[],
): Promise<Map<string, AuthenticatedSession>> {
  const rows = await ctx.db
    .select({
      tokenHash: sessions.tokenHash,
      sessionId: sessions.id,
      userId: sessions.userId,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      username: users.username,
      isAdministrator: users.isAdministrator,
      bannedAt: users.bannedAt,
      secondFactorAt: sessions.secondFactorAt,
      twoFactorEnabledAt: twoFactor.enabledAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(twoFactor, eq(twoFactor.userId, sessions.userId))
    .where(inArray(sessions.tokenHash, [...new Set(tokenHashes)]));
  const found = new Map<string, AuthenticatedSession>();
  for (const row of rows) {
    if (row.revokedAt || row.bannedAt) continue;
    found.set(row.tokenHash, {
      sessionId: row.sessionId,
      userId: row.userId,
      username: row.username,
      isAdministrator: row.isAdministrator,
      expiresAt: row.expiresAt,
      twoFactorEnabled: row.twoFactorEnabledAt !== null,
      secondFactorPending: row.twoFactorEnabledAt !== null && row.secondFactorAt === null,
    });
  }
  return found;
}

/**
 * Records activity at most once a minute per session, without making the request wait: the
 * sessions touched within a second are written by one statement (after a restart every open page
 * reconnects at once: one write each was a thousand commits in a reconnect storm, bench/realtime).
 */
function touchSession(ctx: AppContext, sessionId: string): void {
  const cache = ctx.sessionCache;
  if (cache.recentlyTouched.has(sessionId)) return;
  cache.recentlyTouched.set(sessionId, true);
  cache.toTouch.add(sessionId);
  cache.touchTimer ??= setTimeout(() => void writeSessionTouches(ctx), TOUCH_BATCH_MS).unref();
}

/** Writes the activity recorded since the last write (every second, and at shutdown: app.ts). */
export async function writeSessionTouches(ctx: AppContext): Promise<void> {
  const cache = ctx.sessionCache;
  clearTimeout(cache.touchTimer);
  cache.touchTimer = undefined;
  if (cache.toTouch.size === 0) return;
  const sessionIds = [...cache.toTouch];
  cache.toTouch.clear();
  await ctx.db
    .update(sessions)
    .set({ lastSeenAt: new Date() })
    .where(inArray(sessions.id, sessionIds))
    .catch((error: unknown) => ctx.log.warn({ err: error }, 'mise à jour de l’activité de session en échec'));
}

/** The session passed the second factor (a TOTP or recovery code): it becomes a full one. */
export async function markSecondFactorPassed(
  ctx: AppContext,
  sessionId: string,
  at = new Date(),
): Promise<void> {
  await ctx.db.update(sessions).set({ secondFactorAt: at }).where(eq(sessions.id, sessionId));
}

/** Revokes sessions of a user: all of them, or all but one, or the listed ones. */
export async function revokeSessions(
  ctx: TxContext,
  input: { userId: string; exceptSessionId?: string; sessionIds?: string[]; banned?: boolean },
): Promise<string[]> {
  const conditions = [eq(sessions.userId, input.userId), isNull(sessions.revokedAt)];
  if (input.exceptSessionId) conditions.push(ne(sessions.id, input.exceptSessionId));
  if (input.sessionIds)
    conditions.push(inArray(sessions.id, input.sessionIds.length ? input.sessionIds : [newId()]));
  const revoked = await ctx.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(...conditions))
    .returning({ id: sessions.id });
  const sessionIds = revoked.map((row) => row.id);
  if (sessionIds.length)
    ctx.events.emit('sessions.revoked', { userId: input.userId, sessionIds, banned: input.banned });
  return sessionIds;
}

/** The user's open sessions (not revoked, not expired), the one asking marked, most recently used first. */
export async function listOwnSessions(
  ctx: AppContext,
  input: { userId: string; currentSessionId: string },
): Promise<MySession[]> {
  const rows = await ctx.db
    .select({ session: sessions, twoFactorEnabledAt: twoFactor.enabledAt })
    .from(sessions)
    .leftJoin(twoFactor, eq(twoFactor.userId, sessions.userId))
    .where(
      and(eq(sessions.userId, input.userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())),
    )
    .orderBy(desc(sessions.lastSeenAt))
    .limit(200);
  return rows.map(({ session, twoFactorEnabledAt }) => ({
    id: session.id,
    userAgent: session.userAgent,
    ip: session.ip,
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
    current: session.id === input.currentSessionId,
    awaitingSecondFactor: twoFactorEnabledAt !== null && session.secondFactorAt === null,
  }));
}

/**
 * The signed-in user ends one of their own sessions (another browser, a sign-in they do not
 * recognise), or every other one; audited. A session of someone else is not found.
 */
export async function revokeOwnSessions(
  ctx: AppContext,
  session: { userId: string; username: string; sessionId: string },
  origin: { ip: string | null },
  sessionId?: string,
): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const revoked = await revokeSessions(tx, {
      userId: session.userId,
      ...(sessionId ? { sessionIds: [sessionId] } : { exceptSessionId: session.sessionId }),
    });
    if (sessionId && revoked.length === 0) throw new AppError('SESSION_NOT_FOUND');
    await writeAudit(tx, {
      actor: { id: session.userId, username: session.username, ip: origin.ip },
      action: 'auth.sessions_revoked',
      target: { type: 'user', id: session.userId, label: session.username },
      after: { sessionIds: revoked },
    });
    return revoked.length;
  });
}
