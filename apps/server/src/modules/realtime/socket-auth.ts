import { type SocketAuthenticateInput, socketAuthenticateInput } from '@bot/contracts';
import type { AppContext } from '../../context.ts';
import { getUserPermissions, hasPermissions } from '../access/access.service.ts';
import { findSessionByToken } from '../auth/sessions.service.ts';
import { canRunBot, findAllowedAccounts, findBotSessionByToken } from '../bots/bots.service.ts';
import { lacksRequiredSecondFactor } from '../two-factor/two-factor.gate.ts';
import { findUserById } from '../users/users.service.ts';
import type { BotIdentity } from './bot-presence.ts';
import { type Refusal, refusal } from './realtime.types.ts';

/** Who a socket turned out to be, with what its socket data records. */
export type SocketIdentity =
  | {
      kind: 'admin' | 'client';
      userId: string;
      username: string;
      sessionId: string;
      sessionExpiresAt: number;
      /** The bot a client socket watches. */
      hwid?: string;
    }
  | {
      kind: 'bot';
      userId: string;
      username: string;
      sessionId: string;
      sessionExpiresAt: number;
      hwid: string;
      bot: BotIdentity;
    };

/** Checks an `authenticate` payload: the identity, or the refusal to answer. */
export async function authenticateSocket(
  ctx: AppContext,
  payload: unknown,
  queryHwid: string | undefined,
): Promise<SocketIdentity | Refusal> {
  const parsed = socketAuthenticateInput.safeParse(payload);
  if (!parsed.success) return refusal('VALIDATION_ERROR');
  const input = parsed.data;
  return input.type === 'bot' ? authenticateBot(ctx, input) : authenticateBrowser(ctx, input, queryHwid);
}

export function isRefusal(answer: SocketIdentity | Refusal): answer is Refusal {
  return 'code' in answer;
}

async function authenticateBrowser(
  ctx: AppContext,
  input: Exclude<SocketAuthenticateInput, { type: 'bot' }>,
  queryHwid: string | undefined,
): Promise<SocketIdentity | Refusal> {
  const session = await findSessionByToken(ctx, input.token);
  if (!session) return refusal('UNAUTHORIZED');
  const isStaff = await hasPermissions(ctx, session.userId, ['can_manageMap']);
  if (input.type === 'admin') {
    if (!isStaff) return refusal('FORBIDDEN');
  } else {
    if (queryHwid !== undefined && queryHwid !== input.hwid) return refusal('VALIDATION_ERROR');
    if (!isStaff) {
      // Guessing other people's hwids: refused attempts are counted, and past the limit every
      // attempt of the user is refused (and disconnected) until the window ends.
      if (await ctx.limiter.isExhausted('watchRefusal', session.userId)) return refusal('RATE_LIMITED');
      const user = await findUserById(ctx.db, session.userId);
      if (user?.hwid !== input.hwid) {
        await ctx.limiter.hit('watchRefusal', session.userId).catch(() => undefined);
        return refusal('FORBIDDEN');
      }
    }
  }
  // Staff power (the fleet feed, any bot) passes the admin area's two-factor gate.
  if (isStaff && (await lacksRequiredSecondFactor(ctx, session)))
    return refusal('TWO_FACTOR_ENROLLMENT_REQUIRED');
  return {
    kind: input.type,
    userId: session.userId,
    username: session.username,
    sessionId: session.sessionId,
    sessionExpiresAt: session.expiresAt.getTime(),
    hwid: input.type === 'client' ? input.hwid : undefined,
  };
}

async function authenticateBot(
  ctx: AppContext,
  input: Extract<SocketAuthenticateInput, { type: 'bot' }>,
): Promise<SocketIdentity | Refusal> {
  const session = await findBotSessionByToken(ctx, { token: input.token, hwid: input.hwid });
  if (!session) return refusal('BOT_SESSION_INVALID');
  if (!canRunBot(await getUserPermissions(ctx, session.userId))) return refusal('BOT_PERMISSION_REQUIRED');
  const allowedAccounts = await findAllowedAccounts(ctx, session.userId);
  return {
    kind: 'bot',
    userId: session.userId,
    username: session.username,
    sessionId: session.sessionId,
    sessionExpiresAt: session.expiresAt.getTime(),
    hwid: input.hwid,
    bot: {
      userId: session.userId,
      username: session.username,
      hwid: input.hwid,
      version: session.version,
      allowedAccounts,
    },
  };
}

/** Authentications checked at once (each costs a few SQL reads). */
const MAX_CONCURRENT_AUTHENTICATIONS = 4;

/**
 * Runs authentications a few at a time, each after a turn of the event loop. The embedded
 * database answers through promise chains that never yield: hundreds of bots reconnecting at once
 * would otherwise keep the loop from sending pings and accepting sockets for seconds (the
 * benchmark showed mass ping timeouts at 5,000 bots).
 */
export class AuthenticationSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= MAX_CONCURRENT_AUTHENTICATIONS) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running += 1;
    try {
      await new Promise((resolve) => setImmediate(resolve));
      return await task();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
