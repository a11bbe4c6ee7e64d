import {
  type AdminFeed,
  type BotState,
  cellSizeOf,
  MAP_CELL_STRIDE,
  type MapCells,
  type MapViewport,
  SOCKET_EVENTS,
  viewportMatcher,
} from '@bot/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { applyCommandUpdate, liveKeys, setConnection } from './live-keys.ts';
import type { SocketClient } from './socket-client.ts';

// The fleet as the admin socket sees it, shared by /admin/map (which draws it) and the dashboard
// (which counts it). The map's own use of it (buffers, viewport following) is in features/admin-map/feed.

/**
 * The fleet in the query cache. `bots` is replaced (never mutated) on each change; `changed` and
 * `removed` name what the last change touched, so the map updates its buffers without a full scan.
 */
export interface LiveFleet {
  /** `full`: every online bot; `viewport`: only the bots the map shows, and cell counts (decision 206). */
  feed: AdminFeed;
  bots: ReadonlyMap<string, BotState>;
  /**
   * Viewport feed: the latest per-cell counts of each node, by node. Zoomed out, every node's; zoomed
   * in, those of the nodes holding more bots in the area than they send one by one (decision 206).
   */
  cells: ReadonlyMap<string, NodeCells>;
  /** What the map shows (the viewport feed keeps only that: a state sent for an older one is late). */
  viewport?: MapViewport;
  onlineCount: number;
  /** Bumped on each change. */
  version: number;
  /** True when the last change was a snapshot (everything replaced). */
  isSnapshot: boolean;
  changed: readonly string[];
  removed: readonly string[];
}

/** One node's counts and when they came (a node silent for a while is forgotten: it died). */
interface NodeCells extends MapCells {
  receivedAt: number;
}

/** Each node sends its counts every second; after this long without, its counts are dropped. */
const NODE_CELLS_LIFETIME_MS = 3_500;

export const emptyFleet: LiveFleet = {
  feed: 'full',
  bots: new Map(),
  cells: new Map(),
  onlineCount: 0,
  version: 0,
  isSnapshot: true,
  changed: [],
  removed: [],
};

export function applySnapshot(states: readonly BotState[], onlineCount?: number, version = 0): LiveFleet {
  const bots = new Map<string, BotState>();
  for (const state of states) if (state.online) bots.set(state.hwid, state);
  return {
    feed: 'full',
    cells: new Map(),
    bots,
    onlineCount: onlineCount ?? bots.size,
    version: version + 1,
    isSnapshot: true,
    changed: [...bots.keys()],
    removed: [],
  };
}

export function applyBatch(fleet: LiveFleet, states: readonly BotState[]): LiveFleet {
  const bots = new Map(fleet.bots);
  const changed: string[] = [];
  const removed: string[] = [];
  const isShown = shownBy(fleet);
  for (const state of states) {
    if (state.online && isShown(state)) {
      bots.set(state.hwid, state);
      changed.push(state.hwid);
    } else if (bots.delete(state.hwid)) {
      removed.push(state.hwid);
    }
  }
  return { ...fleet, bots, version: fleet.version + 1, isSnapshot: false, changed, removed };
}

export function applyDisconnect(fleet: LiveFleet, hwid: string): LiveFleet {
  if (!fleet.bots.has(hwid)) return fleet;
  const bots = new Map(fleet.bots);
  bots.delete(hwid);
  return { ...fleet, bots, version: fleet.version + 1, isSnapshot: false, changed: [], removed: [hwid] };
}

/**
 * Which states the fleet keeps: all of them on the full feed; on the viewport feed only those the
 * current viewport shows, none zoomed out (a node may still answer the viewport before).
 */
function shownBy(fleet: LiveFleet): (state: BotState) => boolean {
  if (fleet.feed === 'full' || !fleet.viewport) return () => true;
  return fleet.viewport.cellSize === null ? viewportMatcher(fleet.viewport).shows : () => false;
}

/** The hub put the socket on the viewport feed: start empty, the nodes send what the viewport shows. */
export function startViewportFeed(fleet: LiveFleet): LiveFleet {
  return {
    ...emptyFleet,
    feed: 'viewport',
    viewport: fleet.viewport,
    onlineCount: fleet.onlineCount,
    version: fleet.version + 1,
    removed: [...fleet.bots.keys()],
  };
}

/**
 * One node's counts replace its previous ones; nodes silent for a while are dropped. Counts in cells
 * of another size answer a viewport the map has left: ignored.
 */
export function applyCells(fleet: LiveFleet, message: MapCells, now = Date.now()): LiveFleet {
  if (fleet.viewport && message.cellSize !== cellSizeOf(fleet.viewport)) return fleet;
  const cells = new Map<string, NodeCells>();
  for (const [node, entry] of fleet.cells)
    if (now - entry.receivedAt < NODE_CELLS_LIFETIME_MS) cells.set(node, entry);
  // Zoomed in, a node sending no cells sends its bots one by one instead: nothing of it to count.
  if (message.cells.length === 0 && fleet.viewport?.cellSize === null) cells.delete(message.node);
  else cells.set(message.node, { ...message, receivedAt: now });
  return { ...fleet, cells, version: fleet.version + 1, isSnapshot: false, changed: [], removed: [] };
}

/**
 * The map moved or changed its filters: bots it no longer shows leave at once (the nodes send the
 * newly shown ones). Zoomed out, no bot stays (none would be kept up to date); zoomed in, no count.
 */
export function applyViewport(fleet: LiveFleet, viewport: MapViewport): LiveFleet {
  const keeps = shownBy({ ...fleet, feed: 'viewport', viewport });
  const bots = new Map<string, BotState>();
  const removed: string[] = [];
  for (const [hwid, state] of fleet.bots) {
    if (keeps(state)) bots.set(hwid, state);
    else removed.push(hwid);
  }
  const cells = viewport.cellSize === null ? new Map<string, NodeCells>() : fleet.cells;
  return {
    ...fleet,
    viewport,
    bots,
    cells,
    version: fleet.version + 1,
    isSnapshot: false,
    changed: [],
    removed,
  };
}

/** Accounts in the nodes' cell counts (viewport feed: zoomed out, or zoomed in where a node capped). */
export function countCellAccounts(fleet: LiveFleet): number {
  let total = 0;
  for (const { cells } of fleet.cells.values())
    for (let at = 0; at < cells.length; at += MAP_CELL_STRIDE)
      for (let status = 2; status < MAP_CELL_STRIDE; status++) total += cells[at + status] ?? 0;
  return total;
}

/** Accounts online for the dashboard: the bots' on the full feed, the nodes' totals on the viewport feed. */
export function countFleetAccounts(fleet: LiveFleet): number {
  if (fleet.feed === 'viewport') return countCellAccounts(fleet);
  let total = 0;
  for (const bot of fleet.bots.values()) total += bot.accounts.length;
  return total;
}

/** The whole world in one count per status: what the dashboard asks for on the viewport feed. */
export const FLEET_TOTALS_VIEWPORT: MapViewport = {
  minX: -1000,
  minY: -1000,
  maxX: 1000,
  maxY: 1000,
  cellSize: 4096,
  statuses: [],
  owner: '',
  version: '',
};

/** Tells the admin socket what the map shows; the cached fleet drops what it no longer shows. */
export function setFleetViewport(
  queryClient: QueryClient,
  client: SocketClient,
  viewport: MapViewport | undefined,
): void {
  client.setAdminViewport(viewport);
  const fleet = queryClient.getQueryData<LiveFleet>(liveKeys.fleet) ?? emptyFleet;
  if (viewport && fleet.feed === 'viewport')
    queryClient.setQueryData(liveKeys.fleet, applyViewport(fleet, viewport));
  else
    queryClient.setQueryData(liveKeys.fleet, {
      ...fleet,
      viewport,
      isSnapshot: false,
      changed: [],
      removed: [],
    });
}

/** Watches the fleet with the admin socket (all of it, or what `setFleetViewport` names); cached. */
export function watchFleet(queryClient: QueryClient, client: SocketClient) {
  const current = () => queryClient.getQueryData<LiveFleet>(liveKeys.fleet) ?? emptyFleet;
  const socket = client.connectAsAdmin({
    onFeed: (feed) => {
      if (feed === 'viewport') queryClient.setQueryData(liveKeys.fleet, startViewportFeed(current()));
    },
    onCells: (message) => queryClient.setQueryData(liveKeys.fleet, applyCells(current(), message)),
    onSnapshot: (states) => {
      const fleet = current();
      queryClient.setQueryData(liveKeys.fleet, applySnapshot(states, undefined, fleet.version));
    },
    onUpdate: (states) => queryClient.setQueryData(liveKeys.fleet, applyBatch(current(), states)),
    onDisconnect: (hwid) => queryClient.setQueryData(liveKeys.fleet, applyDisconnect(current(), hwid)),
    onOnlineCount: (count) => {
      const fleet = current();
      if (fleet.onlineCount !== count) {
        queryClient.setQueryData(liveKeys.fleet, {
          ...fleet,
          onlineCount: count,
          changed: [],
          removed: [],
          isSnapshot: false,
        });
      }
    },
    onConnectionChange: (state) => setConnection(queryClient, liveKeys.fleetConnection, state),
  });
  if (!socket) return () => undefined;
  // Commands this staff member sent: their states, live (decision 208).
  socket.on(SOCKET_EVENTS.botCommandUpdate, (command) => applyCommandUpdate(queryClient, command));
  return () => {
    client.disconnectAdmin();
    setConnection(queryClient, liveKeys.fleetConnection, 'disconnected');
  };
}
