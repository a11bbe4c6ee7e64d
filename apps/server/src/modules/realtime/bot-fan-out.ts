import { type BotState, SOCKET_EVENTS } from '@bot/contracts';
import type { Logger } from 'pino';
import { runInBackground } from '../../core/background.ts';
import type { Audience } from './audience.ts';
import type { MapViewports } from './map-viewports.ts';
import type { RealtimeMetrics } from './realtime.metrics.ts';
import type { HubServer } from './realtime.types.ts';
import { rooms } from './rooms.ts';

/** States per admin `bot_update` message. */
const ADMIN_BATCH_SLICE = 500;

interface FanOutDeps {
  io: HubServer;
  audience: Audience;
  /** Staff maps that follow a viewport instead of the whole fleet. */
  viewports: MapViewports;
  metrics: RealtimeMetrics;
  log: Logger;
  /** Online bots, whole fleet. */
  countOnline(): Promise<number>;
  /** False once a queued state is stale (its bot went offline or reconnected meanwhile). */
  isCurrent(state: BotState): boolean;
  /** True while the other nodes are unreachable: deliver to this node's sockets only, at once. */
  isDegraded(): boolean;
}

/**
 * Delivers bot states: to a bot's watchers (owner, staff on its page) at once, to staff watching
 * the whole fleet in batches every `adminFlushMs`, plus offline notices and the online count.
 * Rooms span the nodes (the Socket.IO adapter), so a bot on one node reaches watchers on any.
 */
export class BotFanOut {
  private readonly pendingForStaff = new Map<string, BotState>();
  private isCountDirty = false;
  private isClosed = false;

  constructor(private readonly deps: FanOutDeps) {}

  /** The latest state of one bot: its watchers now, staff at the next flush. */
  publish(state: BotState): void {
    const room = rooms.bot(state.hwid);
    if (this.deps.audience.has(room)) {
      this.target().to(room).emit(SOCKET_EVENTS.botUpdate, state);
      this.deps.metrics.statesOut.inc({ audience: 'owner' });
    }
    this.pendingForStaff.set(state.hwid, state);
  }

  /** The bot went away: watchers get its offline state, staff `bot_disconnect`. */
  wentOffline(state: BotState): void {
    this.pendingForStaff.delete(state.hwid);
    const room = rooms.bot(state.hwid);
    if (this.deps.audience.has(room)) {
      this.target()
        .to(room)
        .emit(SOCKET_EVENTS.botUpdate, { ...state, online: false });
    }
    // Every staff map hears it, viewport maps included: the bot may be one another node showed them
    // (a reaped bot of a killed node is announced by a node that never held it).
    this.target().to([rooms.admins, rooms.mapViewers]).emit(SOCKET_EVENTS.botDisconnect, state.hwid);
    this.deps.viewports.wentOffline(state.hwid);
    this.countChanged();
  }

  countChanged(): void {
    this.isCountDirty = true;
  }

  /** Sends the queued states to staff, and the online count when it changed. */
  flush(): void {
    if (this.pendingForStaff.size > 0) {
      const batch = [...this.pendingForStaff.values()];
      this.pendingForStaff.clear();
      if (this.deps.audience.has(rooms.admins)) this.emitStaffBatch(batch, 0);
      this.deps.viewports.deliver(batch.filter((state) => this.deps.isCurrent(state)));
    }
    if (this.isCountDirty) {
      this.isCountDirty = false;
      runInBackground(this.deps.log, 'online count', async () => {
        this.target()
          .to([rooms.admins, rooms.mapViewers])
          .emit(SOCKET_EVENTS.onlineCount, await this.deps.countOnline());
      });
    }
  }

  close(): void {
    this.isClosed = true;
    this.pendingForStaff.clear();
  }

  /**
   * Sends a batch in slices, one per turn of the event loop: encoding thousands of states at once
   * would hold every other socket back for tens of milliseconds.
   */
  private emitStaffBatch(batch: BotState[], from: number): void {
    const slice = batch.slice(from, from + ADMIN_BATCH_SLICE).filter((state) => this.deps.isCurrent(state));
    if (slice.length > 0) {
      this.target().to(rooms.admins).emit(SOCKET_EVENTS.botUpdate, slice);
      this.deps.metrics.statesOut.inc({ audience: 'admin' }, slice.length);
    }
    if (from + ADMIN_BATCH_SLICE < batch.length) {
      setImmediate(() => {
        if (!this.isClosed) this.emitStaffBatch(batch, from + ADMIN_BATCH_SLICE);
      });
    }
  }

  private target(): HubServer | HubServer['local'] {
    return this.deps.isDegraded() ? this.deps.io.local : this.deps.io;
  }
}
