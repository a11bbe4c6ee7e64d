import type { LeaseRenewal } from '@bot/contracts';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { canRunBot, getUserPermissions } from '../access/index.ts';
import { issueLease } from '../licensing/index.ts';
import { getSettings } from '../settings/index.ts';
import { listWhitelistedAccountNames } from '../whitelist/index.ts';
import {
  botSessionEnd,
  findBotSessionByToken,
  isOutdatedAgent,
  outdatedAgentDetails,
} from './bots.service.ts';
import { botSessions } from './bots.table.ts';

/**
 * `POST /api/bot/lease`: a fresh lease for a live bot session (the same checks as its socket: an
 * unexpired, unrevoked session for the PC still bound to a non-banned user holding a bot permission).
 * The renewal extends the session: it ends `botSessionTtlMs` after the last one (docs/protocol.md).
 */
export async function renewLease(
  ctx: AppContext,
  input: { token: string; hwid: string },
): Promise<{ lease: string; expiresAt: string }> {
  return inTransaction(ctx, async (tx) => {
    const session = await findBotSessionByToken(tx, input);
    if (!session) throw new AppError('BOT_SESSION_INVALID');
    const { minBotVersion } = await getSettings(tx);
    if (isOutdatedAgent(session.version, minBotVersion))
      throw new AppError('BOT_VERSION_OUTDATED', { details: outdatedAgentDetails(tx, minBotVersion) });
    if (!canRunBot(await getUserPermissions(tx, session.userId)))
      throw new AppError('BOT_PERMISSION_REQUIRED');
    const expiresAt = botSessionEnd(tx);
    await tx.db.update(botSessions).set({ expiresAt }).where(eq(botSessions.id, session.sessionId));
    const lease = await issueLease(tx, {
      userId: session.userId,
      hwid: session.hwid,
      agentHwid: session.agentHwid,
    });
    return { lease, expiresAt: expiresAt.toISOString() };
  });
}

/**
 * A fresh lease for an open bot session and the whitelist it names, pushed to its agent when its
 * whitelist or entitlements changed (decision 923); undefined once the session ended. The session
 * is not extended: only the agent's own renewals do that.
 */
export async function pushedLeaseOf(ctx: AppContext, sessionId: string): Promise<LeaseRenewal | undefined> {
  const [session] = await ctx.db
    .select({ userId: botSessions.userId, hwid: botSessions.hwid, agentHwid: botSessions.agentHwid })
    .from(botSessions)
    .where(
      and(
        eq(botSessions.id, sessionId),
        isNull(botSessions.revokedAt),
        gt(botSessions.expiresAt, new Date(ctx.clock.now())),
      ),
    );
  if (!session) return undefined;
  const [lease, whitelist] = await Promise.all([
    issueLease(ctx, session),
    listWhitelistedAccountNames(ctx, session.userId),
  ]);
  return { lease, whitelist };
}
