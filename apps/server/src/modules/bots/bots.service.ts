import {
  type AgentUpdate,
  type BotSessionAnswer,
  type ErrorDetails,
  type HwidComponents,
  PROTOCOL_VERSION,
  PROTOCOL_VERSION_UNSAID,
  type ReleaseChannel,
} from '@bot/contracts';
import { and, eq, gt, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import semver from 'semver';
import { type AppContext, inTransaction, type TxContext } from '../../context.ts';
import { deleteInBatches, retentionStart } from '../../core/batched-delete.ts';
import { AppError } from '../../core/errors.ts';
import { hashSecret, newId, newSecret } from '../../core/ids.ts';
import { canRunBot, getUserPermissions } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { forgetBotLogOfPc } from '../bot-log/index.ts';
import { endCommandsOfUnboundPc } from '../commands/index.ts';
import { issueLease } from '../licensing/index.ts';
import { bindOrRecognisePc, type PcTimeline, releasePc } from '../pcs/index.ts';
import { getSettings } from '../settings/index.ts';
import { findUserByBotKey, type UserRow, users } from '../users/index.ts';
import { listWhitelistedAccountNames, listWhitelistedAccountNamesOfUsers } from '../whitelist/index.ts';
import { hasBotEventSince, writeBotEvent } from './bot-events.ts';
import { botSessions } from './bots.table.ts';

/** A PC's binding events go on its bot's timeline (the PCs module asks for it, decision 014). */
const botTimeline: PcTimeline = { write: writeBotEvent, hasSince: hasBotEventSince };

/** Where customers download builds (signed in, with either bot permission: decision 900). */
const DOWNLOAD_PAGE = '/started';

/**
 * The update offered to an agent of this version and channel on this PC: the releases module's
 * `updateFor`, handed in by whoever opens the session (app.ts wires the route). The releases watch
 * the bots (rollout health, deferrals), so the bots do not import them (decision 010).
 */
export type UpdateOffer = (
  ctx: AppContext,
  agent: { version: string; channel: ReleaseChannel; hwid: string },
) => Promise<AgentUpdate | null>;

/**
 * Opens a bot session for the agent holding the user's access key: binds the hwid on first use,
 * recognises the bound PC by its components under another hwid (decision 906), refuses another PC,
 * a banned or unactivated account, an account without bot permission and an outdated agent.
 */
export async function openBotSession(
  ctx: AppContext,
  input: {
    accessKey: string;
    hwid: string;
    components?: HwidComponents;
    version: string;
    channel?: ReleaseChannel;
    /** `MAJOR.MINOR`, validated by the route (`PROTOCOL_VERSION_UNSAID` when the agent says none). */
    protocolVersion?: string;
    lastCrash?: { version: string; at: string; message: string };
    ip: string | null;
  },
  offerUpdate: UpdateOffer,
): Promise<BotSessionAnswer> {
  const user = await findUserByBotKey(ctx, input.accessKey);
  if (!user?.botKeyHash) throw new AppError('BOT_KEY_INVALID');
  if (user.bannedAt) throw new AppError('ACCOUNT_BANNED');
  if (!user.activatedAt) throw new AppError('ACCOUNT_NOT_ACTIVATED');
  // An agent of another major protocol gets what an outdated one gets: the build to download.
  if (!speaksOurProtocol(input.protocolVersion)) {
    const { minBotVersion } = await getSettings(ctx);
    throw new AppError('BOT_VERSION_OUTDATED', { details: outdatedAgentDetails(ctx, minBotVersion) });
  }
  // Refused before the PC is bound; checked again with the lease, which the session is opened with.
  await inTransaction(ctx, (tx) => refuseUnlessEntitled(tx, { userId: user.id, version: input.version }));
  const hwid = await bindOrRecognisePc(ctx, {
    user,
    hwid: input.hwid,
    components: input.components ?? null,
    ip: input.ip,
    timeline: botTimeline,
  });

  if (input.lastCrash) {
    const { version, at, message } = input.lastCrash;
    await writeBotEvent(ctx, {
      hwid,
      userId: user.id,
      kind: 'crashed',
      at: new Date(at),
      detail: { version, message },
    });
  }
  // Recognised under another hwid: the leases name the agent's own too (docs/licensing.md).
  const agentHwid = input.hwid === hwid ? null : input.hwid;
  const token = `bs_${newSecret(32)}`;
  const expiresAt = botSessionEnd(ctx);
  const { botKeyHash } = user;
  const lease = await inTransaction(ctx, async (tx) => {
    const issued = await leaseFor(tx, { userId: user.id, hwid, agentHwid, version: input.version });
    await tx.db.insert(botSessions).values({
      id: newId(),
      userId: user.id,
      tokenHash: hashSecret(token),
      hwid,
      agentHwid,
      botKeyHash,
      version: input.version,
      ip: input.ip,
      expiresAt,
    });
    return issued;
  });
  return {
    hwid,
    token,
    expiresAt: expiresAt.toISOString(),
    whitelist: await listWhitelistedAccountNames(ctx, user.id),
    update: await offerUpdate(ctx, { version: input.version, channel: input.channel ?? 'stable', hwid }),
    lease,
    protocolVersion: PROTOCOL_VERSION,
  };
}

/**
 * The checks every lease passes, whoever asks for it (the session's opening, its renewals, the
 * pushes of decision 923): an agent not below the minimum version, for an owner holding a bot
 * permission. Read through the caller's transaction, never from the permission cache: a lease
 * never outlives what it entitles (docs/licensing.md, "The lease format").
 */
async function refuseUnlessEntitled(
  tx: TxContext,
  holder: { userId: string; version: string },
): Promise<void> {
  const { minBotVersion } = await getSettings(tx);
  if (isOutdatedAgent(holder.version, minBotVersion))
    throw new AppError('BOT_VERSION_OUTDATED', { details: outdatedAgentDetails(tx, minBotVersion) });
  if (!canRunBot(await getUserPermissions(tx, holder.userId))) throw new AppError('BOT_PERMISSION_REQUIRED');
}

/** A lease for a bot session, once its holder passed the checks every lease passes (one transaction). */
export async function leaseFor(
  ctx: AppContext,
  holder: { userId: string; hwid: string; agentHwid: string | null; version: string },
): Promise<string> {
  return inTransaction(ctx, async (tx) => {
    await refuseUnlessEntitled(tx, holder);
    return issueLease(tx, holder);
  });
}

/** Any minor of the server's major: a newer minor's agent ignores nothing the server sends. */
const speaksOurProtocol = (said = PROTOCOL_VERSION_UNSAID): boolean =>
  said.split('.')[0] === PROTOCOL_VERSION.split('.')[0];

/**
 * When a bot session opened or renewed now ends: `botSessionTtlMs` after its last renewal, so an
 * agent that renews its lease keeps its session (docs/protocol.md, "The bot session").
 */
export const botSessionEnd = (ctx: AppContext): Date =>
  new Date(ctx.clock.now() + ctx.config.botSessionTtlMs);

/** An agent below the minimum version is refused, at its session and on its live socket. */
export const isOutdatedAgent = (version: string, minBotVersion: string): boolean =>
  semver.lt(version, minBotVersion);

/** What an outdated agent is told (`BOT_VERSION_OUTDATED`): the minimum and where to download a current build. */
export function outdatedAgentDetails(
  ctx: AppContext,
  minBotVersion: string,
): ErrorDetails<'BOT_VERSION_OUTDATED'> {
  return { minBotVersion, pageUrl: `${ctx.config.publicUrl}${DOWNLOAD_PAGE}` };
}

export interface LiveBotSession {
  sessionId: string;
  userId: string;
  username: string;
  hwid: string;
  /** The hwid the agent sent when it was recognised as `hwid` (decision 906), else null. */
  agentHwid: string | null;
  version: string;
  expiresAt: Date;
}

/**
 * The live bot session behind a token for that hwid: unexpired, unrevoked, opened with the user's
 * current access key, for the PC still bound to a non-banned user holding a bot permission.
 */
export async function findBotSessionByToken(
  ctx: AppContext,
  input: { token: string; hwid: string },
): Promise<LiveBotSession | undefined> {
  const [session] = await findBotSessionsByTokens(ctx, [input.token]);
  return session?.hwid === input.hwid ? session : undefined;
}

/**
 * The live bot sessions behind many tokens, in their order (undefined where none), in one query: a
 * reconnect storm authenticates thousands of bots at once. The caller checks each one's hwid.
 */
export async function findBotSessionsByTokens(
  ctx: AppContext,
  tokens: readonly string[],
): Promise<(LiveBotSession | undefined)[]> {
  const hashes = tokens.map(hashSecret);
  const live = await findLiveBotSessions(ctx, inArray(botSessions.tokenHash, [...new Set(hashes)]));
  return hashes.map((hash) => live.get(hash));
}

/** The live bot session of this id (the same checks as by its token), else undefined. */
export async function findBotSessionById(
  ctx: AppContext,
  sessionId: string,
): Promise<LiveBotSession | undefined> {
  const [session] = (await findLiveBotSessions(ctx, eq(botSessions.id, sessionId))).values();
  return session;
}

/** The live sessions among those the condition selects, by their token's hash. */
async function findLiveBotSessions(ctx: AppContext, selected: SQL): Promise<Map<string, LiveBotSession>> {
  const rows = await ctx.db
    .select({
      sessionId: botSessions.id,
      tokenHash: botSessions.tokenHash,
      userId: botSessions.userId,
      hwid: botSessions.hwid,
      agentHwid: botSessions.agentHwid,
      version: botSessions.version,
      expiresAt: botSessions.expiresAt,
      sessionKeyHash: botSessions.botKeyHash,
      username: users.username,
      userHwid: users.hwid,
      userKeyHash: users.botKeyHash,
      bannedAt: users.bannedAt,
    })
    .from(botSessions)
    .innerJoin(users, eq(users.id, botSessions.userId))
    .where(
      and(selected, isNull(botSessions.revokedAt), gt(botSessions.expiresAt, new Date(ctx.clock.now()))),
    );
  const live = new Map<string, LiveBotSession>();
  for (const row of rows) {
    if (row.bannedAt || row.hwid !== row.userHwid || row.sessionKeyHash !== row.userKeyHash) continue;
    live.set(row.tokenHash, {
      sessionId: row.sessionId,
      userId: row.userId,
      username: row.username,
      hwid: row.hwid,
      agentHwid: row.agentHwid,
      version: row.version,
      expiresAt: row.expiresAt,
    });
  }
  return live;
}

/**
 * Unbinds a user's PC inside the caller's transaction (a customer's reset or a staff one): the
 * binding goes, the bot sessions of that PC end with it, so do the owner's bot log lines of that PC
 * (decision 209) and the commands they left waiting (decision 208), the audit entry is written,
 * and once the transaction commits `hwid.reset` tells every node to close that PC's sockets.
 */
export async function unbindPc(
  tx: TxContext,
  input: { user: UserRow & { hwid: string }; actor: AuditActor; resetAt: Date | null },
): Promise<void> {
  const { user } = input;
  await releasePc(tx, { userId: user.id, hwid: user.hwid, resetAt: input.resetAt });
  await revokeBotSessions(tx, { userId: user.id, hwid: user.hwid });
  // The PC's log was this owner's: its next owner must not read it (docs/security.md).
  await forgetBotLogOfPc(tx, { userId: user.id, hwid: user.hwid });
  // A command waiting for this PC was the owner's: the PC's next owner must not run it.
  await endCommandsOfUnboundPc(tx, { userId: user.id, hwid: user.hwid });
  await writeAudit(tx, {
    actor: input.actor,
    action: 'user.hwid_reset',
    target: { type: 'user', id: user.id, label: user.username },
    before: { hwid: user.hwid },
    after: { hwid: null },
  });
  tx.events.emit('hwid.reset', { userId: user.id, hwid: user.hwid });
}

/**
 * When each of these bot sessions ends now (renewals move it), for those still open: the sockets'
 * expiry sweep reads it, in one query, for the sockets whose known end has passed.
 */
export async function findBotSessionEnds(
  ctx: AppContext,
  sessionIds: readonly string[],
): Promise<Map<string, number>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: botSessions.id, expiresAt: botSessions.expiresAt })
    .from(botSessions)
    .where(
      and(
        inArray(botSessions.id, [...sessionIds]),
        isNull(botSessions.revokedAt),
        gt(botSessions.expiresAt, new Date(ctx.clock.now())),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.expiresAt.getTime()]));
}

/** Ends a user's bot sessions (all, or those of one PC). */
export async function revokeBotSessions(
  ctx: AppContext,
  input: { userId: string; hwid?: string },
): Promise<number> {
  const conditions = [eq(botSessions.userId, input.userId), isNull(botSessions.revokedAt)];
  if (input.hwid) conditions.push(eq(botSessions.hwid, input.hwid));
  const revoked = await ctx.db
    .update(botSessions)
    .set({ revokedAt: new Date() })
    .where(and(...conditions))
    .returning({ id: botSessions.id });
  return revoked.length;
}

/**
 * Deletes the bot sessions ended (revoked or expired) more than `botSessionRetentionDays` ago (the
 * retention loop, docs/capacity.md). An open session is never deleted: it is neither revoked nor
 * expired, and the agent holding it would be refused.
 */
export async function pruneBotSessions(ctx: AppContext, now = new Date()): Promise<number> {
  const { botSessionRetentionDays } = await getSettings(ctx);
  const before = retentionStart(now, botSessionRetentionDays);
  return deleteInBatches(
    ctx.db,
    botSessions,
    or(lt(botSessions.revokedAt, before), lt(botSessions.expiresAt, before)) ?? sql`false`,
  );
}

/** Game accounts the user's bot may report (compared case-insensitively). */
export async function findAllowedAccounts(ctx: AppContext, userId: string): Promise<Set<string>> {
  return (await findAllowedAccountsOfUsers(ctx, [userId])).get(userId) ?? new Set();
}

/** The game accounts each user's bot may drive (lower-cased), in one query. */
export async function findAllowedAccountsOfUsers(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const allowed = new Map<string, Set<string>>();
  for (const { userId, name } of await listWhitelistedAccountNamesOfUsers(ctx, userIds)) {
    const names = allowed.get(userId) ?? new Set<string>();
    names.add(name.toLowerCase());
    allowed.set(userId, names);
  }
  return allowed;
}
