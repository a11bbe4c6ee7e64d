import {
  type MapViewport,
  type Permission,
  type SocketAuthenticateInput,
  socketAuthenticateInput,
} from '@bot/contracts';
import DataLoader from 'dataloader';
import type { AppContext } from '../../context.ts';
import type { AuthenticatedSession } from '../../core/guards.ts';
import { canRunBot, getPermissionsOfUsers, mayReadBotOf } from '../access/index.ts';
import { findSessionsByTokens, lacksRequiredSecondFactor } from '../auth/index.ts';
import { mayReadBotLog } from '../bot-log/index.ts';
import {
  findAllowedAccountsOfUsers,
  findBotSessionsByTokens,
  isOutdatedAgent,
  type LiveBotSession,
  outdatedAgentDetails,
} from '../bots/index.ts';
import { getSettings } from '../settings/index.ts';
import { findHwidsOfUsers } from '../users/index.ts';
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
 * windows 31 (326 batches); a bot's or a page's socket hardly notices 25 ms, as long as it waits
 * for one window only (what each kind of socket reads is one batch, below).
 */
const BATCH_WINDOW_MS = 15;

/** What a page's socket is checked against: its session, its user's permissions and bound PC. */
interface PageCredentials {
  session: AuthenticatedSession;
  permissions: Permission[];
  hwid: string | null;
}

/** What a bot's socket is checked against: its bot session, its user's permissions and whitelist. */
interface BotCredentials {
  session: LiveBotSession;
  permissions: Permission[];
  allowedAccounts: Set<string>;
}

/**
 * Checks `authenticate` payloads. The reads of sockets authenticating at the same moment (a reconnect
 * storm: thousands of bots after a restart) are batched: one query per kind of fact for the whole
 * batch (DataLoader), not one per socket, and every fact a socket needs comes from the same batch:
 * one window per socket, not one per fact (three in a row made a page's socket wait 75 ms for
 * facts mostly cached, and the benchmark's connect time twice the bare relay's).
 */
export class SocketAuthenticator {
  private readonly pages: DataLoader<string, PageCredentials | undefined>;
  private readonly bots: DataLoader<string, BotCredentials | undefined>;

  constructor(private readonly ctx: AppContext) {
    // A batch holds the loads of a short window: sockets connecting one by one at a few hundred a
    // second each find few others in the same turn of the event loop, and one query each is what
    // overwhelmed the embedded database in a storm. No memoisation: a later authentication must
    // see revocations and changes.
    const options = {
      cache: false,
      batchScheduleFn: (dispatch: () => void) => setTimeout(dispatch, BATCH_WINDOW_MS),
    };
    this.pages = new DataLoader((tokens) => readPageCredentials(ctx, tokens), options);
    this.bots = new DataLoader((tokens) => readBotCredentials(ctx, tokens), options);
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
    const credentials = await this.pages.load(input.token);
    if (!credentials) return refusal('UNAUTHORIZED');
    const { session } = credentials;
    if (input.type === 'log') return this.authenticateJournal(input, credentials);
    const isStaff = credentials.permissions.includes('can_manageMap');
    if (input.type === 'admin') {
      if (!isStaff) return refusal('FORBIDDEN');
    } else {
      if (queryHwid !== undefined && queryHwid !== input.hwid) return refusal('VALIDATION_ERROR');
      if (!isStaff) {
        // Guessing other people's hwids: refused attempts are counted, and past the limit every
        // attempt of the user is refused (and disconnected) until the window ends.
        if (await ctx.limiter.isExhausted('watchRefusal', session.userId)) return refusal('RATE_LIMITED');
        if (credentials.hwid !== input.hwid) {
          await ctx.limiter.hit('watchRefusal', session.userId).catch(() => undefined);
          return refusal('FORBIDDEN');
        }
      }
    }
    // Staff watch someone else's bot under the staff rank (docs/decisions/404, reads).
    if (
      input.type === 'client' &&
      isStaff &&
      credentials.hwid !== input.hwid &&
      !(await mayReadBotOf(ctx, { actorId: session.userId, hwid: input.hwid }))
    )
      return refusal('FORBIDDEN');
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
    { session, permissions, hwid }: PageCredentials,
  ): Promise<SocketIdentity | Refusal> {
    const { ctx } = this;
    const { userId } = session;
    if (await ctx.limiter.isExhausted('watchRefusal', userId)) return refusal('RATE_LIMITED');
    if (!(await mayReadBotLog(ctx, { userId, hwid: input.hwid, permissions }))) {
      await ctx.limiter.hit('watchRefusal', userId).catch(() => undefined);
      return refusal('FORBIDDEN');
    }
    const isOwner = hwid === input.hwid;
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
    const credentials = await this.bots.load(input.token);
    if (credentials?.session.hwid !== input.hwid) return refusal('BOT_SESSION_INVALID');
    const { session, permissions, allowedAccounts } = credentials;
    if (!canRunBot(permissions)) return refusal('BOT_PERMISSION_REQUIRED');
    // Every connection is checked against the minimum of now, whenever its session was opened.
    const { minBotVersion } = await getSettings(this.ctx);
    if (isOutdatedAgent(session.version, minBotVersion))
      return refusal('BOT_VERSION_OUTDATED', outdatedAgentDetails(this.ctx, minBotVersion));
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

/** The credentials behind page tokens, in their order: sessions first, then their users' facts. */
async function readPageCredentials(
  ctx: AppContext,
  tokens: readonly string[],
): Promise<(PageCredentials | undefined)[]> {
  return withFactsOfUsers(await findSessionsByTokens(ctx, tokens), async (userIds) => {
    const [permissions, hwids] = await Promise.all([
      getPermissionsOfUsers(ctx, userIds),
      findHwidsOfUsers(ctx, userIds),
    ]);
    return (session) => ({
      session,
      permissions: permissions.get(session.userId) ?? [],
      hwid: hwids.get(session.userId) ?? null,
    });
  });
}

/** The credentials behind bot tokens, in their order: bot sessions first, then their users' facts. */
async function readBotCredentials(
  ctx: AppContext,
  tokens: readonly string[],
): Promise<(BotCredentials | undefined)[]> {
  return withFactsOfUsers(await findBotSessionsByTokens(ctx, tokens), async (userIds) => {
    const [permissions, allowed] = await Promise.all([
      getPermissionsOfUsers(ctx, userIds),
      findAllowedAccountsOfUsers(ctx, userIds),
    ]);
    return (session) => ({
      session,
      permissions: permissions.get(session.userId) ?? [],
      allowedAccounts: allowed.get(session.userId) ?? new Set<string>(),
    });
  });
}

/**
 * Completes each session found (undefined stays undefined) with facts about its user, read once
 * for every user of the batch: `read` answers how to build one socket's credentials.
 */
async function withFactsOfUsers<Session extends { userId: string }, Credentials>(
  sessions: readonly (Session | undefined)[],
  read: (userIds: string[]) => Promise<(session: Session) => Credentials>,
): Promise<(Credentials | undefined)[]> {
  const userIds = sessions.flatMap((session) => (session ? [session.userId] : []));
  if (userIds.length === 0) return sessions.map(() => undefined);
  const credentialsOf = await read(userIds);
  return sessions.map((session) => (session ? credentialsOf(session) : undefined));
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
