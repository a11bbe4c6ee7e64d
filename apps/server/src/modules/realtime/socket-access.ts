import { ERRORS, type ErrorCode, type Permission, SOCKET_EVENTS } from '@bot/contracts';
import type { AppContext } from '../../context.ts';
import type { EventBus } from '../../core/events.ts';
import {
  canRunBot,
  findUsersWithGrantsExpiredBetween,
  getUserPermissions,
  mayReadBotOf,
} from '../access/index.ts';
import {
  findSessionsAwaitingSecondFactor,
  hasTwoFactorEnabled,
  lacksRequiredSecondFactor,
} from '../auth/index.ts';
import { mayReadBotLog } from '../bot-log/index.ts';
import {
  findAllowedAccounts,
  findBotSessionEnds,
  isOutdatedAgent,
  outdatedAgentDetails,
  pushedLeaseOf,
} from '../bots/index.ts';
import { runningMaintenance } from '../maintenance-windows/index.ts';
import { getSettings, toPublicSettings } from '../settings/index.ts';
import { findUserById } from '../users/index.ts';
import type { BotPresence } from './bot-presence.ts';
import { type HubServer, type HubSocket, localSocketsIn, type RefuseSocket } from './realtime.types.ts';
import { rooms } from './rooms.ts';

interface AccessDeps {
  ctx: AppContext;
  /** The whole bus: the grants' expiry is announced here, no use case changes anything then. */
  bus: EventBus;
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
        task().catch((error: unknown) =>
          ctx.log.error({ err: error }, 'traitement d’un événement du temps réel en échec'),
        );
      });
    };
    this.unsubscribers.push(
      events.on('sessions.revoked', ({ sessionIds, banned }) => {
        const code = banned ? 'ACCOUNT_BANNED' : 'UNAUTHORIZED';
        for (const sessionId of sessionIds) this.closeRoom(rooms.session(sessionId), code);
      }),
      // The use cases ended the sessions in their transaction; each node closes its own sockets.
      events.on('user.banned', ({ userId }) => {
        this.closeRoom(rooms.user(userId), 'ACCOUNT_BANNED');
        this.closeRoom(rooms.userAgents(userId), 'ACCOUNT_BANNED');
      }),
      events.on('botKey.rotated', ({ userId }) =>
        this.closeRoom(rooms.userAgents(userId), 'BOT_SESSION_INVALID'),
      ),
      events.on('hwid.reset', ({ userId, hwid }) =>
        later(() => {
          this.closeRoom(rooms.agent(hwid), 'BOT_SESSION_INVALID');
          return this.recheckUser(userId);
        }),
      ),
      events.on('user.changed', ({ userId }) => later(() => this.recheckUser(userId))),
      events.on('whitelist.changed', ({ userId }) =>
        later(async () => {
          await this.deps.presence.reloadAllowedAccounts(userId, () => findAllowedAccounts(ctx, userId));
          await this.pushFreshLeases(localSocketsIn(io, rooms.userAgents(userId)));
        }),
      ),
      events.on('sessions.changed', ({ userId }) =>
        later(async () => {
          // Two-factor just turned on: the account's other sessions must give a code first.
          for (const sessionId of await findSessionsAwaitingSecondFactor(ctx, userId))
            this.closeRoom(rooms.session(sessionId), 'UNAUTHORIZED');
          await this.recheckUser(userId);
        }),
      ),
      events.on('settings.changed', ({ keys }) =>
        later(async () => {
          const settings = toPublicSettings(await getSettings(ctx), await runningMaintenance(ctx));
          // Every node got the event: each tells its own browsers.
          io.local.to(rooms.browsers).emit(SOCKET_EVENTS.settingsUpdate, settings);
          if (keys.includes('staffTwoFactorRequired')) await this.recheckStaffSockets();
          if (keys.includes('minBotVersion')) await this.closeOutdatedAgents();
        }),
      ),
      // Every node got the event: each tells its own agents; those holding a lease the key signed
      // replace it (the socket stays open: the session behind it is still good).
      events.on('signingKey.revoked', ({ kid, statement }) => {
        // The statement is signed by a key of the set: agents drop the key only when it verifies.
        const revocation = {
          code: 'LEASE_KEY_REVOKED',
          error: ERRORS.LEASE_KEY_REVOKED.message,
          kid,
          statement,
        };
        for (const socket of io.sockets.sockets.values() as Iterable<HubSocket>)
          if (socket.data.kind === 'bot') socket.emit(SOCKET_EVENTS.leaseRevoked, revocation);
      }),
      // Every node got the event: each rings the bells of its own browsers of those users.
      events.on('notifications.created', ({ userIds }) => {
        for (const userId of userIds) io.local.to(rooms.user(userId)).emit(SOCKET_EVENTS.notification);
      }),
    );
  }

  /**
   * Nothing announces an expiry: every sweep closes the sockets whose session has expired, and
   * re-checks the users whose permission grants ran out since the last sweep (one indexed query,
   * not one per socket, so it stays cheap with thousands of bots).
   */
  async sweepExpired(): Promise<void> {
    if (this.isClosed) return;
    const { ctx, bus, io, refuse } = this.deps;
    const now = Date.now();
    // Bot sessions are opened and renewed on the context's clock (a test moves it hours at once).
    const botNow = ctx.clock.now();
    const botsPastTheirEnd: HubSocket[] = [];
    for (const socket of io.sockets.sockets.values() as Iterable<HubSocket>) {
      const expiresAt = socket.data.sessionExpiresAt;
      if (expiresAt === undefined) continue;
      if (socket.data.kind === 'bot') {
        if (expiresAt <= botNow) botsPastTheirEnd.push(socket);
      } else if (expiresAt <= now) refuse(socket, 'UNAUTHORIZED');
    }
    await this.recheckBotSessionEnds(botsPastTheirEnd);
    const since = new Date(this.grantsCheckedUntil);
    this.grantsCheckedUntil = now;
    for (const userId of await findUsersWithGrantsExpiredBetween(ctx, since, new Date(now))) {
      // Every node runs this sweep and reaches the same users: no need to tell the others.
      bus.emit('user.changed', { userId }, { localOnly: true });
    }
  }

  /**
   * Bot sockets whose session's known end has passed: a renewal of the lease (on any node) moved it
   * later, or the session ended (24 h without a renewal: docs/protocol.md, "The bot session").
   */
  private async recheckBotSessionEnds(sockets: readonly HubSocket[]): Promise<void> {
    if (sockets.length === 0) return;
    const ends = await findBotSessionEnds(
      this.deps.ctx,
      sockets.map((socket) => socket.data.sessionId ?? ''),
    );
    for (const socket of sockets) {
      const end = ends.get(socket.data.sessionId ?? '');
      if (end === undefined) this.deps.refuse(socket, 'BOT_SESSION_INVALID');
      else socket.data.sessionExpiresAt = end;
    }
  }

  /** The minimum version rose: this node's agents below it close, told where to download. */
  private async closeOutdatedAgents(): Promise<void> {
    const { ctx, io, refuse } = this.deps;
    const { minBotVersion } = await getSettings(ctx);
    const details = outdatedAgentDetails(ctx, minBotVersion);
    for (const socket of io.sockets.sockets.values() as Iterable<HubSocket>) {
      const { kind, version } = socket.data;
      if (kind === 'bot' && version && isOutdatedAgent(version, minBotVersion))
        refuse(socket, 'BOT_VERSION_OUTDATED', details);
    }
  }

  /** Two-factor became mandatory for staff: staff sockets without it close. */
  private async recheckStaffSockets(): Promise<void> {
    const staff = new Set<string | undefined>();
    for (const socket of this.deps.io.sockets.sockets.values() as Iterable<HubSocket>)
      if (socket.data.kind !== 'bot') staff.add(socket.data.userId);
    for (const userId of staff) if (userId) await this.recheckUser(userId);
  }

  /** Permissions or PC binding of a user changed: close the sockets they may no longer hold. */
  private async recheckUser(userId: string): Promise<void> {
    const { ctx, io, refuse } = this.deps;
    const browsers = localSocketsIn(io, rooms.user(userId));
    const agents = localSocketsIn(io, rooms.userAgents(userId));
    if (browsers.length === 0 && agents.length === 0) return;
    const held = await getUserPermissions(ctx, userId);
    const user = await findUserById(ctx, userId);
    if (!user || user.bannedAt) {
      for (const socket of [...browsers, ...agents]) refuse(socket, 'UNAUTHORIZED');
      return;
    }
    const staffRefusal = await this.staffRefusalOf(userId, held);
    for (const socket of browsers) {
      if (socket.data.kind === 'log') {
        const refusal = await this.journalRefusalOf(socket, held);
        if (refusal) refuse(socket, refusal);
      }
      if (socket.data.kind === 'admin' && staffRefusal) refuse(socket, staffRefusal);
      if (socket.data.kind === 'client' && socket.data.hwid && socket.data.hwid !== user.hwid) {
        if (staffRefusal)
          refuse(socket, staffRefusal === 'TWO_FACTOR_ENROLLMENT_REQUIRED' ? staffRefusal : 'FORBIDDEN');
        // The watcher lost a staff permission the bot's owner holds (docs/decisions/404, reads).
        else if (!(await mayReadBotOf(ctx, { actorId: userId, hwid: socket.data.hwid })))
          refuse(socket, 'FORBIDDEN');
      }
    }
    const staying: HubSocket[] = [];
    for (const socket of agents) {
      if (!canRunBot(held)) refuse(socket, 'BOT_PERMISSION_REQUIRED');
      else if (socket.data.hwid !== user.hwid) refuse(socket, 'BOT_SESSION_INVALID');
      else staying.push(socket);
    }
    // Their entitlements may have changed (a permission granted, expired, withdrawn).
    await this.pushFreshLeases(staying);
  }

  /**
   * What these agents' leases hold changed (their whitelist, their entitlements): each is sent a
   * fresh lease at once, not at its next renewal hours later (decision 923).
   */
  private async pushFreshLeases(agents: readonly HubSocket[]): Promise<void> {
    for (const socket of agents) {
      const renewal = socket.data.sessionId && (await pushedLeaseOf(this.deps.ctx, socket.data.sessionId));
      if (renewal && socket.connected) socket.emit(SOCKET_EVENTS.leaseRenewed, renewal);
    }
  }

  /** Why a user may not use staff power on sockets now, or null when they may. */
  private async staffRefusalOf(userId: string, held: readonly string[]): Promise<ErrorCode | null> {
    if (!held.includes('can_manageMap')) return 'FORBIDDEN';
    return this.secondFactorRefusalOf(userId);
  }

  /** Why a journal socket may no longer read its bot's log (decision 209), or null. */
  private async journalRefusalOf(socket: HubSocket, held: readonly Permission[]): Promise<ErrorCode | null> {
    const { userId, hwid } = socket.data;
    if (!userId || !hwid) return 'FORBIDDEN';
    if (!(await mayReadBotLog(this.deps.ctx, { userId, hwid, permissions: held }))) return 'FORBIDDEN';
    const isOwner = (await findUserById(this.deps.ctx, userId))?.hwid === hwid;
    return isOwner ? null : this.secondFactorRefusalOf(userId);
  }

  private async secondFactorRefusalOf(userId: string): Promise<ErrorCode | null> {
    const twoFactorEnabled = await hasTwoFactorEnabled(this.deps.ctx, userId);
    return (await lacksRequiredSecondFactor(this.deps.ctx, { twoFactorEnabled }))
      ? 'TWO_FACTOR_ENROLLMENT_REQUIRED'
      : null;
  }

  private closeRoom(room: string, code: ErrorCode): void {
    for (const socket of localSocketsIn(this.deps.io, room)) this.deps.refuse(socket, code);
  }
}
