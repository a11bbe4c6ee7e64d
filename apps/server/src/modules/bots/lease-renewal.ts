import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { canRunBot, getUserPermissions } from '../access/index.ts';
import { issueLease } from '../licensing/index.ts';
import { getSettings } from '../settings/index.ts';
import { findBotSessionByToken, isOutdatedAgent, outdatedAgentDetails } from './bots.service.ts';

/**
 * `POST /api/bot/lease`: a fresh lease for a live bot session (the same checks as its socket: an
 * unexpired, unrevoked session for the PC still bound to a non-banned user holding a bot permission).
 */
export async function renewLease(ctx: AppContext, input: { token: string; hwid: string }): Promise<string> {
  const session = await findBotSessionByToken(ctx, input);
  if (!session) throw new AppError('BOT_SESSION_INVALID');
  const { minBotVersion } = await getSettings(ctx);
  if (isOutdatedAgent(session.version, minBotVersion))
    throw new AppError('BOT_VERSION_OUTDATED', { details: outdatedAgentDetails(ctx, minBotVersion) });
  if (!canRunBot(await getUserPermissions(ctx, session.userId)))
    throw new AppError('BOT_PERMISSION_REQUIRED');
  return issueLease(ctx, { userId: session.userId, hwid: session.hwid, agentHwid: session.agentHwid });
}
