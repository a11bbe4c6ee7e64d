import { type BotHistoryPoint, type BotHistoryUpdate, type BotState, SOCKET_EVENTS } from '@bot/contracts';
import type { Logger } from 'pino';
import { runInBackground } from '../../core/background.ts';
import type { Audience } from './audience.ts';
import type { MapViewports } from './map-viewports.ts';
import type { RealtimeMetrics } from './realtime.metrics.ts';
import type { HubServer, PeerAudience } from './realtime.types.ts';
import { rooms } from './rooms.ts';
import { emitEncoded } from './text-parser.ts';

/** States per admin `bot_update` message. */
const ADMIN_BATCH_SLICE = 500;
/**
 * How long watched states wait to travel to other nodes together: each message to Redis is a
 * system call on every node, which cost more than the states it carried when they went one by one.
 */
const PEER_WATCHERS_WAIT_MS = 20;

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
  /** True while this node is overloaded: its watchers get the latest state per bot at each flush. */
  isOverloaded(): boolean;
  /** A bot's minutes not written yet (the bots module's activity), for its watchers' charts. */
  pendingMinutes(userId: string, hwid: string): BotHistoryPoint[];
  /** The owner of a bot this node holds, or undefined. */
  holderOf(hwid: string): string | undefined;
  /** Hands states (JSON bytes) to the other nodes, which deliver them to their own sockets (`fromPeer`). */
  sendToPeers(audience: PeerAudience, count: number, states: Uint8Array): void;
}

/**
 * States travel between nodes as JSON in UTF-8 bytes. The Redis adapter packs server-side events
 * with msgpack, written in JavaScript: packing the states themselves took a third of a node's time
 * in the cluster benchmark, and even one JSON string is counted character by character; bytes are
 * copied as they are.
 */
const toBytes = (json: string): Buffer => Buffer.from(json);
const fromBytes = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString();

/**
 * Delivers bot states: to a bot's watchers (owner, staff on its page) at once (overloaded: the
 * latest per bot at each flush), to staff watching
 * the whole fleet in batches every `adminFlushMs`, plus offline notices and the online count.
 * With several nodes, states go only to the nodes that watch them (`Audience`), and each node
 * encodes them only for its own sockets: a bot's watchers elsewhere get the watched states of every
 * `PEER_WATCHERS_WAIT_MS` together, not one message per state.
 */
export class BotFanOut {
  private readonly pendingForStaff = new Map<string, BotState>();
  /** Overloaded: the latest state of each bot for this node's watchers, sent at the next flush. */
  private readonly pendingForLocalWatchers = new Map<string, BotState>();
  /** The latest state of each bot watched elsewhere (a report updates its state object in place). */
  private pendingForPeerWatchers = new Map<string, BotState>();
  /** Watched bots that reported since the last flush: their owner's id, by hwid. */
  private readonly minutesDue = new Map<string, string>();
  private isCountDirty = false;
  private isClosed = false;

  constructor(private readonly deps: FanOutDeps) {
    // A new watcher, here or on another node, gets the minutes of a bot held here at the next
    // flush, not at its next report: the page it opened may have read them on another node.
    deps.io.of('/').adapter.on('join-room', (room: string) => this.watcherJoined(room));
    deps.io.on('watching', (room: string) => this.watcherJoined(room));
  }

  /** The latest state of one bot: its watchers now, staff at the next flush. */
  publish(state: BotState): void {
    this.toWatchers(state);
    this.pendingForStaff.set(state.hwid, state);
  }

  /**
   * A watched bot reported: its watchers get its unwritten minutes at the next flush, at most one
   * update per bot and flush (the chart moves by the minute; decision 013).
   */
  minutesChanged(userId: string, hwid: string): void {
    const room = rooms.bot(hwid);
    if (this.deps.audience.isWatchedHere(room) || this.isWatchedOnPeers(room))
      this.minutesDue.set(hwid, userId);
  }

  private watcherJoined(room: string): void {
    const hwid = rooms.hwidOfBot(room);
    const userId = hwid && this.deps.holderOf(hwid);
    if (hwid && userId) this.minutesChanged(userId, hwid);
  }

  /**
   * States another node sent for this node's sockets, read only if someone here watches. Staff get
   * the batch as the other node wrote it (never parsed and written again).
   */
  fromPeer(audience: PeerAudience, count: number, states: Uint8Array): void {
    if (audience === 'staff') {
      if (this.deps.audience.isWatchedHere(rooms.admins)) this.toLocalStaff(count, fromBytes(states));
      return;
    }
    if (audience === 'minutes') {
      for (const update of JSON.parse(fromBytes(states)) as BotHistoryUpdate[]) this.minutesToLocal(update);
      return;
    }
    for (const state of JSON.parse(fromBytes(states)) as BotState[])
      this.toLocalWatchers(rooms.bot(state.hwid), state);
  }

  /** The bot went away: watchers get its offline state, staff `bot_disconnect`. */
  wentOffline(state: BotState): void {
    this.pendingForStaff.delete(state.hwid);
    this.pendingForLocalWatchers.delete(state.hwid);
    const offline = { ...state, online: false };
    const room = rooms.bot(state.hwid);
    // Behind the online states waiting for other nodes, so that none of them comes after it…
    if (this.isWatchedOnPeers(room)) this.queueForPeers(offline);
    // …and to every node's watchers through the stream too, whoever watches: no later report will
    // replace a lost offline notice, and a watcher may have joined elsewhere since the last refresh.
    this.target().to(room).emit(SOCKET_EVENTS.botUpdate, offline);
    // Every staff map hears it, viewport maps included: the bot may be one another node showed them
    // (a reaped bot of a killed node is announced by a node that never held it).
    this.target().to([rooms.admins, rooms.mapViewers]).emit(SOCKET_EVENTS.botDisconnect, state.hwid);
    this.deps.viewports.wentOffline(state.hwid);
    this.countChanged();
  }

  countChanged(): void {
    this.isCountDirty = true;
  }

  /**
   * Sends the queued states to staff (and, overloaded, to watchers), the watched bots' unwritten
   * minutes, and the online count when it changed.
   */
  flush(): void {
    this.flushMinutes();
    if (this.pendingForLocalWatchers.size > 0) {
      const states = [...this.pendingForLocalWatchers.values()];
      this.pendingForLocalWatchers.clear();
      for (const state of states)
        if (this.deps.isCurrent(state)) this.toLocalWatchers(rooms.bot(state.hwid), state);
    }
    if (this.pendingForStaff.size > 0) {
      const batch = [...this.pendingForStaff.values()];
      this.pendingForStaff.clear();
      if (this.isStaffWatching()) this.emitStaffBatch(batch, 0);
      this.deps.viewports.deliver(batch.filter((state) => this.deps.isCurrent(state)));
    }
    if (this.isCountDirty) {
      this.isCountDirty = false;
      runInBackground(this.deps.log, 'nombre de bots en ligne', async () => {
        this.target()
          .to([rooms.admins, rooms.mapViewers])
          .emit(SOCKET_EVENTS.onlineCount, await this.deps.countOnline());
      });
    }
  }

  close(): void {
    this.flushPeerWatchers();
    this.isClosed = true;
    this.pendingForStaff.clear();
  }

  /**
   * Here at once; to watchers on other nodes with the states of the next `PEER_WATCHERS_WAIT_MS`.
   * One entry per bot: its latest, so an offline notice is never followed by an older online state.
   */
  private toWatchers(state: BotState): void {
    const room = rooms.bot(state.hwid);
    // Overloaded, every change cannot go out at once without delaying all of them: the latest state
    // per bot goes at the next flush (decision 911).
    if (this.deps.isOverloaded()) this.pendingForLocalWatchers.set(state.hwid, state);
    else this.toLocalWatchers(room, state);
    if (this.isWatchedOnPeers(room)) this.queueForPeers(state);
  }

  private queueForPeers(state: BotState): void {
    if (this.pendingForPeerWatchers.size === 0)
      setTimeout(() => this.flushPeerWatchers(), PEER_WATCHERS_WAIT_MS);
    this.pendingForPeerWatchers.set(state.hwid, state);
  }

  private flushPeerWatchers(): void {
    const states = [...this.pendingForPeerWatchers.values()];
    this.pendingForPeerWatchers.clear();
    // Not while the other nodes are unreachable: the adapter would hold them and send them late.
    if (this.isClosed || states.length === 0 || this.deps.isDegraded()) return;
    this.deps.sendToPeers('watchers', states.length, toBytes(JSON.stringify(states)));
  }

  /** Each due bot's minutes to its watchers here, and in one message to the nodes watching it. */
  private flushMinutes(): void {
    if (this.minutesDue.size === 0) return;
    const forPeers: BotHistoryUpdate[] = [];
    for (const [hwid, userId] of this.minutesDue) {
      const update = { hwid, points: this.deps.pendingMinutes(userId, hwid) };
      this.minutesToLocal(update);
      if (this.isWatchedOnPeers(rooms.bot(hwid))) forPeers.push(update);
    }
    this.minutesDue.clear();
    if (forPeers.length > 0 && !this.isClosed)
      this.deps.sendToPeers('minutes', forPeers.length, toBytes(JSON.stringify(forPeers)));
  }

  private minutesToLocal(update: BotHistoryUpdate): void {
    const room = rooms.bot(update.hwid);
    if (this.deps.audience.isWatchedHere(room))
      this.deps.io.local.to(room).emit(SOCKET_EVENTS.botHistory, update);
  }

  private toLocalWatchers(room: string, state: BotState): void {
    if (!this.deps.audience.isWatchedHere(room)) return;
    this.deps.io.local.to(room).emit(SOCKET_EVENTS.botUpdate, state);
    this.deps.metrics.statesOut.inc({ audience: 'owner' });
  }

  /** `count` states, already JSON (`statesJson`), to this node's staff maps. */
  private toLocalStaff(count: number, statesJson: string): void {
    if (!this.deps.audience.isWatchedHere(rooms.admins)) return;
    emitEncoded(this.deps.io, rooms.admins, SOCKET_EVENTS.botUpdate, statesJson);
    this.deps.metrics.statesOut.inc({ audience: 'admin' }, count);
  }

  private isStaffWatching(): boolean {
    return this.deps.audience.isWatchedHere(rooms.admins) || this.isWatchedOnPeers(rooms.admins);
  }

  /** Another node watches `room` and can be reached. */
  private isWatchedOnPeers(room: string): boolean {
    return this.deps.audience.isWatchedElsewhere(room) && !this.deps.isDegraded();
  }

  /**
   * Sends a batch in slices, one per turn of the event loop: encoding thousands of states at once
   * would hold every other socket back for tens of milliseconds.
   */
  private emitStaffBatch(batch: BotState[], from: number): void {
    const slice = batch.slice(from, from + ADMIN_BATCH_SLICE).filter((state) => this.deps.isCurrent(state));
    if (slice.length > 0) {
      // Written once, for this node's staff and the other nodes' alike.
      const json = JSON.stringify(slice);
      this.toLocalStaff(slice.length, json);
      if (this.isWatchedOnPeers(rooms.admins)) this.deps.sendToPeers('staff', slice.length, toBytes(json));
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
