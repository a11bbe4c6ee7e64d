import { type ErrorCode, SOCKET_EVENTS } from '@bot/contracts';
import type { AppContext } from '../../core/context.ts';
import { findUsersWithGrantsExpiredBetween, getUserPermissions } from '../access/access.service.ts';
import { canRunBot, findAllowedAccounts, revokeBotSessions } from '../bots/bots.service.ts';
import { getSettings, toPublicSettings } from '../settings/settings.service.ts';
import { findUserById } from '../users/users.service.ts';
import type { BotPresence } from './bot-presence.ts';
import { type HubServer, type HubSocket, localSocketsIn, type RefuseSocket } from './realtime.types.ts';
import { rooms } from './rooms.ts';

interface AccessDeps {
  ctx: AppContext;
  io: HubServer;
  presence: BotPresence;
  refuse: RefuseSocket;
}

/**
 * Keeps every open socket allowed: reacts to domain events (revocations, bans, permission, hwid,
 * whitelist and settings changes) and to expiries nobody announces. Every node receives every
 * event (the relay) and acts on its own sockets only; the database work is idempotent.
 */
export class SocketAccess {
  private readonly unsubscribers: (() => void)[] = [];
  /** Grants that expired before this instant were already re-checked. */
  private grantsCheckedUntil = Date.now();
  private isClosed = false;

  constructor(private readonly deps: AccessDeps) {
    this.subscribe();
  }

  close(): void {
    this.isClosed = true;
    for (const unsubscribe of this.unsubscribers) unsubscribe();
  }

  private subscribe(): void {
    const { ctx, io } = this.deps;
    const { events } = ctx;
    const later = (task: () => Promise<void>) => {
      // After the other listeners (caches) have dropped their stale entries.
      setImmediate(() => {
        if (this.isClosed) return;
        task().catch((error: unknown) => ctx.log.error({ err: error }, 'realtime event handling failed'));
      });
    };
    this.unsubscribers.push(
      events.on('sessions.revoked', ({ sessionIds, banned }) => {
        const code = banned ? 'ACCOUNT_BANNED' : 'UNAUTHORIZED';
        for (const sessionId of sessionIds) this.closeRoom(rooms.session(sessionId), code);
      }),
      events.on('user.banned', ({ userId }) =>
        later(async () => {
          this.closeRoom(rooms.user(userId), 'ACCOUNT_BANNED');
          this.closeRoom(rooms.userAgents(userId), 'ACCOUNT_BANNED');
          await revokeBotSessions(ctx, { userId });
        }),
      ),
      events.on('botKey.rotated', ({ userId }) =>
        later(async () => {
          this.closeRoom(rooms.userAgents(userId), 'BOT_SESSION_INVALID');
          await revokeBotSessions(ctx, { userId });
        }),
      ),
      events.on('hwid.reset', ({ userId, hwid }) =>
        later(async () => {
          this.closeRoom(rooms.agent(hwid), 'BOT_SESSION_INVALID');
          await revokeBotSessions(ctx, { userId, hwid });
          await this.recheckUser(userId);
        }),
      ),
      events.on('user.changed', ({ userId }) => later(() => this.recheckUser(userId))),
      events.on('whitelist.changed', ({ userId }) =>
        later(() => this.deps.presence.reloadAllowedAccounts(userId, () => findAllowedAccounts(ctx, userId))),
      ),
      events.on('settings.changed', () =>
        later(async () => {
          const settings = toPublicSettings(await getSettings(ctx));
          // Every node got the event: each tells its own browsers.
          io.local.to(rooms.browsers).emit(SOCKET_EVENTS.settingsUpdate, settings);
        }),
      ),
    );
  }

  /**
   * Nothing announces an expiry: every sweep closes the sockets whose session has expired, and
   * re-checks the users whose permission grants ran out since the last sweep (one indexed query,
   * not one per socket, so it stays cheap with thousands of bots).
   */
  async sweepExpired(): Promise<void> {
    if (this.isClosed) return;
    const { ctx, io, refuse } = this.deps;
    const now = Date.now();
    for (const socket of io.sockets.sockets.values() as Iterable<HubSocket>) {
      const expiresAt = socket.data.sessionExpiresAt;
      if (expiresAt !== undefined && expiresAt <= now) {
        refuse(socket, socket.data.kind === 'bot' ? 'BOT_SESSION_INVALID' : 'UNAUTHORIZED');
      }
    }
    const since = new Date(this.grantsCheckedUntil);
    this.grantsCheckedUntil = now;
    for (const userId of await findUsersWithGrantsExpiredBetween(ctx.db, since, new Date(now))) {
      // Every node runs this sweep and reaches the same users: no need to tell the others.
      ctx.events.emit('user.changed', { userId }, { localOnly: true });
    }
  }

  /** Permissions or PC binding of a user changed: close the sockets they may no longer hold. */
  private async recheckUser(userId: string): Promise<void> {
    const { ctx, io, refuse } = this.deps;
    const browsers = localSocketsIn(io, rooms.user(userId));
    const agents = localSocketsIn(io, rooms.userAgents(userId));
    if (browsers.length === 0 && agents.length === 0) return;
    const held = await getUserPermissions(ctx, userId);
    const isStaff = held.includes('can_manageMap');
    const user = await findUserById(ctx.db, userId);
    if (!user || user.bannedAt) {
      for (const socket of [...browsers, ...agents]) refuse(socket, 'UNAUTHORIZED');
      return;
    }
    for (const socket of browsers) {
      if (socket.data.kind === 'admin' && !isStaff) refuse(socket, 'FORBIDDEN');
      if (socket.data.kind === 'client' && !isStaff && socket.data.hwid !== user.hwid)
        refuse(socket, 'FORBIDDEN');
    }
    for (const socket of agents) {
      if (!canRunBot(held)) refuse(socket, 'BOT_PERMISSION_REQUIRED');
      else if (socket.data.hwid !== user.hwid) refuse(socket, 'BOT_SESSION_INVALID');
    }
  }

  private closeRoom(room: string, code: ErrorCode): void {
    for (const socket of localSocketsIn(this.deps.io, room)) this.deps.refuse(socket, code);
  }
}
