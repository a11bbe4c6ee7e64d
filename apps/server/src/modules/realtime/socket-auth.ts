import {
  type MapViewport,
  type Permission,
  type SocketAuthenticateInput,
  socketAuthenticateInput,
} from '@bot/contracts';
import DataLoader from 'dataloader';
import type { AppContext } from '../../context.ts';
import { getPermissionsOfUsers } from '../access/access.service.ts';
import { type AuthenticatedSession, findSessionsByTokens } from '../auth/sessions.service.ts';
import { mayReadBotLog } from '../bot-log/bot-log.service.ts';
import {
  canRunBot,
  findAllowedAccountsOfUsers,
  findBotSessionsByTokens,
  isOutdatedAgent,
  type LiveBotSession,
  outdatedAgentRefusal,
} from '../bots/bots.service.ts';
import { getSettings } from '../settings/settings.service.ts';
import { lacksRequiredSecondFactor } from '../two-factor/two-factor.gate.ts';
import { findHwidsOfUsers } from '../users/users.service.ts';
import type { BotIdentity } from './bot-presence.ts';
import { type Refusal, refusal } from './realtime.types.ts';

/** Who a socket turned out to be, with what its socket data records. */
export type SocketIdentity =
  | {
      kind: 'admin' | 'client' | 'log';
      userId: string;
      username: string;
      sessionId: string;
      sessionExpiresAt: number;
      /** The bot a client socket watches, or whose journal a log socket reads. */
      hwid?: string;
      /** What an admin socket's map shows, when it offered one (decision 206). */
      viewport?: MapViewport;
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

export function isRefusal(answer: SocketIdentity | Refusal): answer is Refusal {
  return 'code' in answer;
}

/**
 * How long the reads of authentications wait for others to share their query: in a reconnect storm
 * of 10,000 bots, 10 ms windows caught 11 authentications each (932 batches of five queries), 25 ms
 * windows 31 (326 batches); a bot's or a page's socket hardly notices 25 ms.
 */
const BATCH_WINDOW_MS = 25;

/**
 * Checks `authenticate` payloads. The reads of sockets authenticating at the same moment (a reconnect
 * storm: thousands of bots after a restart) are batched: one query per kind of fact for the whole
 * batch (DataLoader), not one per socket.
 */
export class SocketAuthenticator {
  private readonly webSessions: DataLoader<string, AuthenticatedSession | undefined>;
  private readonly hwidsOfUsers: DataLoader<string, string | null>;
  private readonly botSessions: DataLoader<string, LiveBotSession | undefined>;
  private readonly permissions: DataLoader<string, Permission[]>;
  private readonly allowedAccounts: DataLoader<string, Set<string>>;

  constructor(private readonly ctx: AppContext) {
    // A batch holds the loads of a short window: sockets connecting one by one at a few hundred a
    // second each find few others in the same turn of the event loop, and one query each is what
    // overwhelmed the embedded database in a storm. No memoisation: a later authentication must
    // see revocations and changes.
    const options = {
      cache: false,
      batchScheduleFn: (dispatch: () => void) => setTimeout(dispatch, BATCH_WINDOW_MS),
    };
    this.webSessions = new DataLoader((tokens) => findSessionsByTokens(ctx, tokens), options);
    this.hwidsOfUsers = new DataLoader(async (userIds) => {
      const hwids = await findHwidsOfUsers(ctx, userIds);
      return userIds.map((userId) => hwids.get(userId) ?? null);
    }, options);
    this.botSessions = new DataLoader((tokens) => findBotSessionsByTokens(ctx, tokens), options);
    this.permissions = new DataLoader(async (userIds) => {
      const held = await getPermissionsOfUsers(ctx, userIds);
      return userIds.map((userId) => held.get(userId) ?? []);
    }, options);
    this.allowedAccounts = new DataLoader(async (userIds) => {
      const allowed = await findAllowedAccountsOfUsers(ctx, userIds);
      return userIds.map((userId) => allowed.get(userId) ?? new Set<string>());
    }, options);
  }

  /** The identity behind an `authenticate` payload, or the refusal to answer. */
  async authenticate(payload: unknown, queryHwid: string | undefined): Promise<SocketIdentity | Refusal> {
    const parsed = socketAuthenticateInput.safeParse(payload);
    if (!parsed.success) return refusal('VALIDATION_ERROR');
    const input = parsed.data;
    return input.type === 'bot' ? this.authenticateBot(input) : this.authenticateBrowser(input, queryHwid);
  }

  private async authenticateBrowser(
    input: Exclude<SocketAuthenticateInput, { type: 'bot' }>,
    queryHwid: string | undefined,
  ): Promise<SocketIdentity | Refusal> {
    const { ctx } = this;
    const session = await this.webSessions.load(input.token);
    if (!session) return refusal('UNAUTHORIZED');
    if (input.type === 'log') return this.authenticateJournal(input, session);
    const isStaff = (await this.permissions.load(session.userId)).includes('can_manageMap');
    if (input.type === 'admin') {
      if (!isStaff) return refusal('FORBIDDEN');
    } else {
      if (queryHwid !== undefined && queryHwid !== input.hwid) return refusal('VALIDATION_ERROR');
      if (!isStaff) {
        // Guessing other people's hwids: refused attempts are counted, and past the limit every
        // attempt of the user is refused (and disconnected) until the window ends.
        if (await ctx.limiter.isExhausted('watchRefusal', session.userId)) return refusal('RATE_LIMITED');
        if ((await this.hwidsOfUsers.load(session.userId)) !== input.hwid) {
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
      viewport: input.type === 'admin' ? input.viewport : undefined,
    };
  }

  /**
   * A journal socket: the bot's owner, or staff who may act on it (decision 209). Refusals count
   * like a client socket's (guessing hwids); staff reading someone else's pass the two-factor gate.
   */
  private async authenticateJournal(
    input: Extract<SocketAuthenticateInput, { type: 'log' }>,
    session: AuthenticatedSession,
  ): Promise<SocketIdentity | Refusal> {
    const { ctx } = this;
    const { userId } = session;
    if (await ctx.limiter.isExhausted('watchRefusal', userId)) return refusal('RATE_LIMITED');
    const permissions = await this.permissions.load(userId);
    if (!(await mayReadBotLog(ctx, { userId, hwid: input.hwid, permissions }))) {
      await ctx.limiter.hit('watchRefusal', userId).catch(() => undefined);
      return refusal('FORBIDDEN');
    }
    const isOwner = (await this.hwidsOfUsers.load(userId)) === input.hwid;
    if (!isOwner && (await lacksRequiredSecondFactor(ctx, session)))
      return refusal('TWO_FACTOR_ENROLLMENT_REQUIRED');
    return {
      kind: 'log',
      userId,
      username: session.username,
      sessionId: session.sessionId,
      sessionExpiresAt: session.expiresAt.getTime(),
      hwid: input.hwid,
    };
  }

  private async authenticateBot(
    input: Extract<SocketAuthenticateInput, { type: 'bot' }>,
  ): Promise<SocketIdentity | Refusal> {
    // An overloaded node takes no new bot: the agent retries later and, behind nginx, lands on
    // another node; bots already connected here stay (issue 36).
    if (this.ctx.load.isOverloaded) return refusal('OVERLOADED');
    const session = await this.botSessions.load(input.token);
    if (session?.hwid !== input.hwid) return refusal('BOT_SESSION_INVALID');
    const [permissions, allowedAccounts] = await Promise.all([
      this.permissions.load(session.userId),
      this.allowedAccounts.load(session.userId),
    ]);
    if (!canRunBot(permissions)) return refusal('BOT_PERMISSION_REQUIRED');
    // Every connection is checked against the minimum of now, whenever its session was opened.
    const { minBotVersion } = await getSettings(this.ctx);
    if (isOutdatedAgent(session.version, minBotVersion))
      return refusal('BOT_VERSION_OUTDATED', outdatedAgentRefusal(this.ctx, minBotVersion).message);
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
}

/** Authentications checked at once: about the size of one batch of reads (`SocketAuthenticator`). */
const MAX_CONCURRENT_AUTHENTICATIONS = 64;

/**
 * Runs a bounded number of authentications at once, each after a turn of the event loop. The
 * embedded database answers through promise chains that never yield: thousands of bots reconnecting
 * at once, each with its own reads, kept the loop from sending pings and accepting sockets for
 * seconds (the benchmark showed mass ping timeouts at 5,000 bots). Batched, a few reads per turn.
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
