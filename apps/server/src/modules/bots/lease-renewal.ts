import type { LeaseRenewal } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError, isAppError } from '../../core/errors.ts';
import { listWhitelistedAccountNames } from '../whitelist/index.ts';
import { botSessionEnd, findBotSessionById, findBotSessionByToken, leaseFor } from './bots.service.ts';
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
    const lease = await leaseFor(tx, session);
    const expiresAt = botSessionEnd(tx);
    await tx.db.update(botSessions).set({ expiresAt }).where(eq(botSessions.id, session.sessionId));
    return { lease, expiresAt: expiresAt.toISOString() };
  });
}

/**
 * A fresh lease for an open bot session and the whitelist it names, pushed to its agent when its
 * whitelist or entitlements changed (decision 923), after the checks of a renewal; undefined when the
 * renewal would be refused (the session ended, the owner banned or no longer entitled: the hub's
 * sweep closes that socket). The session is not extended: only the agent's own renewals do that.
 */
export async function pushedLeaseOf(ctx: AppContext, sessionId: string): Promise<LeaseRenewal | undefined> {
  try {
    return await inTransaction(ctx, async (tx) => {
      const session = await findBotSessionById(tx, sessionId);
      if (!session) return undefined;
      const lease = await leaseFor(tx, session);
      return { lease, whitelist: await listWhitelistedAccountNames(tx, session.userId) };
    });
  } catch (error) {
    if (isAppError(error)) return undefined;
    throw error;
  }
}
