import { BOT_STATUSES, type BotAccount, type BotReport, type BotStatus } from '@bot/contracts';
import type { Logger } from 'pino';
import type { BotActivity } from '../../core/bot-activity.ts';
import { isoTimestamp } from '../../core/iso-time.ts';
import type { BotEventRecorder } from '../bots/index.ts';
import type { BotFanOut } from './bot-fan-out.ts';
import type { BotStateStore } from './bot-state-store.ts';
import type { BotConnection, LocalBots } from './local-bots.ts';
import type { HubSocket, RefuseSocket } from './realtime.types.ts';

/**
 * A bot's state goes to the shared store at most this often. The store serves snapshots (a staff
 * map or an owner page opening, fleet alerts), which live updates correct within a flush; writing
 * every report cost a node of three about a tenth of its time at 5,000 bots.
 */
const STORE_WRITE_EVERY_MS = 2_000;

/** Who the bot authenticated as (its bot session). */
export interface BotIdentity {
  userId: string;
  username: string;
  hwid: string;
  version: string;
  allowedAccounts: Set<string>;
}

interface PresenceDeps {
  /** This node's bot connections, which presence alone adds and removes. */
  bots: LocalBots;
  store: BotStateStore;
  fanOut: BotFanOut;
  /** The bots module's per-minute activity (`ctx.activity`), fed with each report. */
  activity: BotActivity;
  /** The bot's timeline: connections, disconnections, accounts into and out of error. */
  events: BotEventRecorder;
  refuse: RefuseSocket;
  log: Logger;
  /** Silence after which a bot is offline (the setting, or the configured override). */
  offlineTimeoutMs(): Promise<number>;
}

/**
 * Which bots are online and their latest state: this node's bot sockets, and their states in the
 * shared store. Writes to the store are batched (`persist`, every admin flush, each bot at most every
 * `STORE_WRITE_EVERY_MS`); the store is what makes presence cluster-wide (one holder per hwid,
 * whole-fleet lists and counts).
 */
export class BotPresence {
  private readonly bots: LocalBots;
  private readonly unsaved = new Set<BotConnection>();
  private isClosed = false;

  constructor(private readonly deps: PresenceDeps) {
    this.bots = deps.bots;
  }

  /** A bot authenticated on this node: it now holds its hwid (an older connection anywhere is replaced). */
  async connect(socket: HubSocket, identity: BotIdentity): Promise<void> {
    const { hwid } = identity;
    const local = this.bots.get(hwid);
    const previous = local?.state ?? (await this.deps.store.get(hwid).catch(() => undefined));
    const now = Date.now();
    const nowIso = new Date(now).toISOString();
    const connection: BotConnection = {
      socket,
      userId: identity.userId,
      hwid,
      lastSeenAt: now,
      storedAt: now,
      allowedAccounts: identity.allowedAccounts,
      state: {
        hwid,
        owner: { id: identity.userId, username: identity.username },
        online: true,
        version: identity.version,
        connectedAt: nowIso,
        lastSeenAt: nowIso,
        accounts: previous?.accounts ?? [],
      },
    };
    this.bots.set(hwid, connection);
    if (local) {
      // Its pending write would name the replaced socket as holder, and be taken for a takeover.
      this.unsaved.delete(local);
      this.deps.refuse(local.socket, 'BOT_REPLACED');
    }
    // Claimed before the older socket elsewhere is closed: its node then finds the bot taken and
    // does not announce it offline (no blip for watchers).
    try {
      await this.deps.store.claim({ state: connection.state, holder: socket.id }, await this.stateTtlMs());
    } catch (error) {
      this.deps.log.warn({ err: error }, 'état du bot non partagé (Redis injoignable)');
    }
    this.deps.events.connected(connection.state, previous?.online === true);
    this.deps.fanOut.publish(connection.state);
    this.deps.fanOut.countChanged();
  }

  /**
   * A validated report from a bot socket of this node; answers the accounts it named that the
   * owner's whitelist does not hold (dropped from the state: decision 923).
   */
  report(socket: HubSocket, report: BotReport): readonly string[] {
    const connection = this.connectionOf(socket);
    if (!connection) return NONE;
    const now = Date.now();
    connection.lastSeenAt = now;
    const accounts = report.accounts.filter((account) =>
      connection.allowedAccounts.has(account.name.toLowerCase()),
    );
    const change = {
      userId: connection.userId,
      hwid: connection.hwid,
      before: connection.state.accounts,
      after: accounts,
      at: now,
    };
    this.deps.activity.recordReport(change);
    this.deps.fanOut.minutesChanged(connection.userId, connection.hwid);
    this.deps.events.statusChanges(change);
    // Updated in place: the store, the pending staff batch and the connection share one object.
    const { state } = connection;
    state.lastSeenAt = isoTimestamp(now);
    state.accounts = mergeAccounts(state.accounts, accounts);
    // Only a paused bot carries the field: a running one's state stays as it was.
    if (report.paused === true) state.paused = true;
    else if (state.paused !== undefined) delete state.paused;
    this.unsaved.add(connection);
    this.deps.fanOut.publish(state);
    if (accounts.length === report.accounts.length) return NONE;
    return report.accounts.filter((account) => !accounts.includes(account)).map((account) => account.name);
  }

  /** True when the socket is the bot connection this node holds. */
  isHeldBy(socket: HubSocket): boolean {
    return this.connectionOf(socket) !== undefined;
  }

  disconnected(socket: HubSocket): Promise<void> {
    const connection = this.connectionOf(socket);
    return connection ? this.goOffline(connection) : Promise.resolve();
  }

  /**
   * Writes the states reported since they were last written, for bots written at least
   * `STORE_WRITE_EVERY_MS` ago; closes connections another node took over.
   */
  async persist(): Promise<void> {
    const now = Date.now();
    const connections: BotConnection[] = [];
    for (const connection of this.unsaved) {
      if (now - connection.storedAt < STORE_WRITE_EVERY_MS) continue;
      connections.push(connection);
      connection.storedAt = now;
      this.unsaved.delete(connection);
    }
    if (connections.length === 0) return;
    let lost: string[];
    try {
      lost = await this.deps.store.update(
        connections.map((connection) => ({ state: connection.state, holder: connection.socket.id })),
        await this.stateTtlMs(),
      );
    } catch (error) {
      // Not written (Redis unreachable): written at the first flush once it is back.
      for (const connection of connections) {
        connection.storedAt = 0;
        this.unsaved.add(connection);
      }
      throw error;
    }
    const written = new Set(connections);
    for (const hwid of lost) {
      const connection = this.bots.get(hwid);
      // Only the connection whose write found another holder: a newer one here keeps the bot.
      if (!connection || !written.has(connection)) continue;
      this.bots.delete(hwid);
      this.deps.refuse(connection.socket, 'BOT_REPLACED');
    }
  }

  /** The store came back, perhaps emptied by a restart: every bot held here is written at the next flush. */
  storeAllAgain(): void {
    for (const connection of this.bots.values()) {
      connection.storedAt = 0;
      this.unsaved.add(connection);
    }
  }

  /** Closes this node's bots that stayed silent too long. */
  async sweepSilent(): Promise<number> {
    if (this.bots.size === 0 || this.isClosed) return 0;
    const timeoutMs = await this.deps.offlineTimeoutMs();
    const now = Date.now();
    let swept = 0;
    for (const connection of [...this.bots.values()]) {
      if (now - connection.lastSeenAt > timeoutMs) {
        swept += 1;
        await this.goOffline(connection);
        connection.socket.disconnect(true);
      }
    }
    return swept;
  }

  /**
   * Bots held by a node that stopped writing (killed): offline for everyone once silent past the
   * timeout, like a silent bot here. Answers how many this node announced.
   */
  async reapOrphans(): Promise<number> {
    if (this.isClosed) return 0;
    // Past the timeout, plus the age a live bot's entry reaches between writes (the write interval
    // and a flush), with room to spare.
    const silentSince = Date.now() - (await this.deps.offlineTimeoutMs()) - STORE_WRITE_EVERY_MS - 2_000;
    const reaped = await this.deps.store.reapSilent(silentSince);
    for (const state of reaped) {
      this.deps.events.disconnected(state);
      this.deps.fanOut.wentOffline(state);
    }
    return reaped.length;
  }

  /** The whitelist of a user changed: their bots on this node re-read it. */
  async reloadAllowedAccounts(userId: string, load: () => Promise<Set<string>>): Promise<void> {
    const connections = [...this.bots.values()].filter((connection) => connection.userId === userId);
    if (connections.length === 0) return;
    const allowed = await load();
    for (const connection of connections) connection.allowedAccounts = allowed;
  }

  close(): void {
    // Not announced offline: the bots reconnect to another node, which takes them over.
    this.isClosed = true;
    this.bots.clear();
    this.unsaved.clear();
  }

  private connectionOf(socket: HubSocket): BotConnection | undefined {
    const hwid = socket.data.hwid;
    if (socket.data.kind !== 'bot' || !hwid) return undefined;
    const connection = this.bots.get(hwid);
    return connection?.socket === socket ? connection : undefined;
  }

  private async goOffline(connection: BotConnection): Promise<void> {
    if (this.bots.get(connection.hwid) !== connection) return;
    this.bots.delete(connection.hwid);
    this.unsaved.delete(connection);
    // Only the holder announces it: a bot taken over by a newer connection elsewhere stays online.
    if (await this.deps.store.release(connection.hwid, connection.socket.id)) {
      this.deps.events.disconnected(connection.state);
      this.deps.fanOut.wentOffline(connection.state);
    }
  }

  /** Long enough for a live bot's next write; a dead node's entries vanish on their own after it. */
  private async stateTtlMs(): Promise<number> {
    return 2 * (await this.deps.offlineTimeoutMs()) + 5_000;
  }
}

const NONE: readonly string[] = [];

const STATUS_NAMES = new Map<string, BotStatus>(BOT_STATUSES.map((status) => [status, status]));

/**
 * Copies a report into the retained state objects when the accounts are the same as before: the
 * parsed report then dies young instead of being promoted, which keeps garbage collection cheap
 * with thousands of bots (the benchmark showed GC as the hub's main extra cost).
 */
function mergeAccounts(current: BotAccount[], incoming: BotAccount[]): BotAccount[] {
  if (current.length !== incoming.length) return incoming;
  for (let i = 0; i < current.length; i += 1) if (current[i]!.name !== incoming[i]!.name) return incoming;
  for (let i = 0; i < current.length; i += 1) {
    const kept = current[i]!;
    const next = incoming[i]!;
    if (kept.character !== next.character) kept.character = next.character;
    kept.level = next.level;
    kept.status = STATUS_NAMES.get(next.status) ?? next.status;
    kept.position.mapId = next.position.mapId;
    kept.position.x = next.position.x;
    kept.position.y = next.position.y;
    if (kept.routeId !== next.routeId) kept.routeId = next.routeId;
    kept.stats.gathered = next.stats.gathered;
    kept.stats.treasures = next.stats.treasures;
    kept.stats.kamas = next.stats.kamas;
    kept.stats.xp = next.stats.xp;
    if (kept.message !== next.message) kept.message = next.message;
  }
  return current;
}
