import {
  type BotState,
  cellSizeOf,
  type MapViewport,
  mapViewportSchema,
  SOCKET_EVENTS,
  type ViewportMatcher,
  viewportMatcher,
} from '@bot/contracts';
import type { AnnouncedViewport, HubServer, HubSocket } from './realtime.types.ts';

/** States per `bot_update` message to one map. */
const SLICE = 500;
/** A viewport of another node is forgotten when that node stops announcing it (killed). */
const REMOTE_LIFETIME_MS = 3_500;
/** Each change makes every node scan its bots: a map changes at most this often (the latest wins). */
const MIN_CHANGE_INTERVAL_MS = 250;
/** A capped map gets states again below this share of the cap (no flapping around the cap). */
const UNCAP_SHARE = 0.75;

/** One staff map in viewport mode, on this node or another. */
interface Subscription {
  socketId: string;
  viewport: MapViewport;
  matcher: ViewportMatcher;
  isLocal: boolean;
  /** This node's bots last sent to the map: one leaving the view gets a `bot_disconnect`. */
  shown: Set<string>;
  /** Zoomed in on more of this node's bots than `maxStates`: sent counts (`map_cells`) instead. */
  isCapped: boolean;
  expiresAt: number;
}

interface MapViewportsDeps {
  io: HubServer;
  /** Names this node in `map_cells` (a map sums the counts of every node). */
  nodeId: string;
  /** The current states of the bots this node holds. */
  localStates(): Iterable<BotState>;
  /** Tells the other nodes (a single node has none). */
  announce(entries: AnnouncedViewport[]): void;
  /** True while the other nodes are unreachable: only this node's maps are served. */
  isDegraded(): boolean;
  /** Most of this node's bots a zoomed-in map gets one by one (`realtime.mapMaxStates`). */
  maxStates: number;
}

/**
 * The staff maps in viewport mode (decision 206): instead of the whole fleet, each map gets the
 * bots of the area it shows (zoomed in) or per-cell counts (zoomed out). Every node serves every
 * map with its own bots, so nothing whole-fleet is ever computed or sent: a map on node A tells the
 * others its viewport (`announce`), each node sends it the states of its bots in view at each admin
 * flush and its cell counts every second. A zoomed-in area holding more of a node's bots than
 * `maxStates` gets that node's counts instead, like a zoomed-out one, until it narrows: what a map
 * receives never grows with the fleet.
 */
export class MapViewports {
  private readonly subscriptions = new Map<string, Subscription>();
  /** This node's maps: when each last changed, and a change held back meanwhile. */
  private readonly changedAt = new Map<string, number>();
  private readonly deferred = new Map<string, { viewport: MapViewport; timer: NodeJS.Timeout }>();

  constructor(private readonly deps: MapViewportsDeps) {}

  /** A map on this node opened or moved: every node sends it what it now shows. */
  set(socketId: string, viewport: MapViewport): void {
    const waitMs = (this.changedAt.get(socketId) ?? 0) + MIN_CHANGE_INTERVAL_MS - Date.now();
    if (waitMs > 0) {
      this.defer(socketId, viewport, waitMs);
      return;
    }
    this.changedAt.set(socketId, Date.now());
    this.deps.announce([{ socketId, viewport }]);
    this.show(this.remember(socketId, viewport, true));
  }

  /** `map_viewport` from a socket: a viewport-feed map moved or changed its filters; else ignored. */
  changeFrom(socket: HubSocket, payload: unknown): void {
    if (socket.data.feed !== 'viewport') return;
    const parsed = mapViewportSchema.safeParse(payload);
    if (parsed.success) this.set(socket.id, parsed.data);
  }

  /** A map on this node closed. */
  remove(socketId: string): void {
    clearTimeout(this.deferred.get(socketId)?.timer);
    this.deferred.delete(socketId);
    this.changedAt.delete(socketId);
    if (this.subscriptions.delete(socketId)) this.deps.announce([{ socketId, viewport: null }]);
  }

  /** Viewports announced by another node: new or moved ones get this node's bots at once. */
  receive(entries: AnnouncedViewport[]): void {
    for (const { socketId, viewport } of entries) {
      const known = this.subscriptions.get(socketId);
      if (known?.isLocal) continue;
      if (!viewport) this.subscriptions.delete(socketId);
      else if (known && isSameViewport(known.viewport, viewport))
        known.expiresAt = Date.now() + REMOTE_LIFETIME_MS;
      else this.show(this.remember(socketId, viewport, false));
    }
  }

  /**
   * Every second: re-announces this node's maps, forgets silent nodes' ones, sends cell counts, and
   * uncaps the capped maps whose area now holds few enough of this node's bots (`deliver` caps).
   */
  tick(): void {
    const now = Date.now();
    const local: AnnouncedViewport[] = [];
    for (const subscription of this.subscriptions.values()) {
      if (subscription.isLocal)
        local.push({ socketId: subscription.socketId, viewport: subscription.viewport });
      else if (subscription.expiresAt < now) this.subscriptions.delete(subscription.socketId);
    }
    if (local.length > 0) this.deps.announce(local);
    for (const subscription of this.subscriptions.values()) {
      if (subscription.viewport.cellSize !== null) this.sendCells(subscription);
      else if (subscription.isCapped) this.recheckCapped(subscription);
    }
  }

  /** The changed states of this node's bots (an admin flush), to the zoomed-in maps showing them. */
  deliver(batch: readonly BotState[]): void {
    for (const subscription of this.subscriptions.values()) {
      // Unreachable (Redis away): left as it was, so what it was shown is still known when it returns.
      if (subscription.viewport.cellSize !== null || subscription.isCapped || !this.target(subscription))
        continue;
      const inView: BotState[] = [];
      for (const state of batch) {
        if (subscription.matcher.shows(state)) {
          inView.push(state);
          subscription.shown.add(state.hwid);
        } else if (subscription.shown.delete(state.hwid)) {
          this.target(subscription)?.emit(SOCKET_EVENTS.botDisconnect, state.hwid);
        }
      }
      if (subscription.shown.size > this.deps.maxStates) this.cap(subscription);
      else this.sendStates(subscription, inView);
    }
  }

  /** A bot went offline (every map was told, `BotFanOut.wentOffline`): no map shows it any more. */
  wentOffline(hwid: string): void {
    for (const subscription of this.subscriptions.values()) subscription.shown.delete(hwid);
  }

  close(): void {
    for (const { timer } of this.deferred.values()) clearTimeout(timer);
    this.deferred.clear();
    this.subscriptions.clear();
  }

  private defer(socketId: string, viewport: MapViewport, waitMs: number): void {
    const held = this.deferred.get(socketId);
    if (held) {
      held.viewport = viewport;
      return;
    }
    const entry = {
      viewport,
      timer: setTimeout(() => {
        this.deferred.delete(socketId);
        this.set(socketId, entry.viewport);
      }, waitMs),
    };
    this.deferred.set(socketId, entry);
  }

  private remember(socketId: string, viewport: MapViewport, isLocal: boolean): Subscription {
    const subscription: Subscription = {
      socketId,
      viewport,
      matcher: viewportMatcher(viewport),
      isLocal,
      shown: new Set(),
      isCapped: false,
      expiresAt: isLocal ? Number.POSITIVE_INFINITY : Date.now() + REMOTE_LIFETIME_MS,
    };
    this.subscriptions.set(socketId, subscription);
    return subscription;
  }

  /** What a new or moved viewport shows of this node's bots, sent at once. */
  private show(subscription: Subscription): void {
    if (subscription.viewport.cellSize !== null) {
      this.sendCells(subscription);
      return;
    }
    const inView: BotState[] = [];
    for (const state of this.deps.localStates()) {
      if (subscription.matcher.shows(state)) inView.push(state);
    }
    if (inView.length > this.deps.maxStates) {
      subscription.isCapped = true;
      this.sendCells(subscription);
      return;
    }
    for (const state of inView) subscription.shown.add(state.hwid);
    // No counts from this node here: drops any it sent before (capped, or for the area before).
    this.target(subscription)?.emit(SOCKET_EVENTS.mapCells, {
      node: this.deps.nodeId,
      cellSize: cellSizeOf(subscription.viewport),
      cells: [],
    });
    this.sendStates(subscription, inView);
  }

  /**
   * Too many bots came into a zoomed-in map: they leave it, their counts come instead (a rare
   * transition: at most `maxStates` notices, once).
   */
  private cap(subscription: Subscription): void {
    const target = this.target(subscription);
    if (!target) return;
    for (const hwid of subscription.shown) target.emit(SOCKET_EVENTS.botDisconnect, hwid);
    subscription.shown.clear();
    subscription.isCapped = true;
    this.sendCells(subscription);
  }

  /** A capped map gets its counts; once its area holds a quarter fewer bots than the cap, states again. */
  private recheckCapped(subscription: Subscription): void {
    if (!this.target(subscription)) return; // unreachable: decided once it is back
    let inView = 0;
    for (const state of this.deps.localStates()) if (subscription.matcher.shows(state)) inView += 1;
    if (inView > this.deps.maxStates * UNCAP_SHARE) {
      this.sendCells(subscription);
      return;
    }
    subscription.isCapped = false;
    this.show(subscription);
  }

  private sendStates(subscription: Subscription, states: BotState[]): void {
    const target = this.target(subscription);
    if (!target) return;
    for (let from = 0; from < states.length; from += SLICE)
      target.emit(SOCKET_EVENTS.botUpdate, states.slice(from, from + SLICE));
  }

  private sendCells(subscription: Subscription): void {
    this.target(subscription)?.emit(SOCKET_EVENTS.mapCells, {
      node: this.deps.nodeId,
      cellSize: cellSizeOf(subscription.viewport),
      cells: subscription.matcher.countCells(this.deps.localStates()),
    });
  }

  /** This node's map directly; another node's through the adapter (skipped while Redis is away). */
  private target(subscription: Subscription) {
    const { io } = this.deps;
    if (subscription.isLocal) return io.local.to(subscription.socketId);
    return this.deps.isDegraded() ? undefined : io.to(subscription.socketId);
  }
}

function isSameViewport(a: MapViewport, b: MapViewport): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
