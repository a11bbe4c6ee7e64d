import { BOT_STATUSES, type BotAccount, type BotState, type BotStatus, type MapViewport } from './bots.ts';
import { versionMatches } from './releases.ts';

/** Numbers per cell in `MapCells.cells`: column, row, then one count per status. */
export const MAP_CELL_STRIDE = 2 + BOT_STATUSES.length;

const STATUS_INDEX = new Map<BotStatus, number>(BOT_STATUSES.map((status, index) => [status, index]));
/** Columns and rows stay within ±4096 (coordinates ±1000, cells of at least one map). */
const CELL_KEY_OFFSET = 4096;

/** The column (or row) of the cell holding a map coordinate: the same on the server and on the canvas. */
export function mapCellOf(coordinate: number, cellSize: number): number {
  return Math.floor((coordinate + 0.5) / cellSize);
}

/** Cells across the wider side of a zoomed-in area when its node sends counts instead of states. */
const CAPPED_CELLS_ACROSS = 64;

/**
 * The size of the cells a viewport's `map_cells` use: the zoomed-out map's own, or for a zoomed-in map
 * whose area holds more bots than a node sends one by one (`realtime.mapMaxStates`), cells a sixty-
 * fourth of the area wide. The hub counts with it and the page keeps only counts of this size.
 */
export function cellSizeOf(viewport: MapViewport): number {
  if (viewport.cellSize !== null) return viewport.cellSize;
  const side = Math.max(viewport.maxX - viewport.minX, viewport.maxY - viewport.minY);
  return Math.max(1, Math.ceil(side / CAPPED_CELLS_ACROSS));
}

/** What a viewport shows, compiled once per viewport (the hub tests every report against it). */
export interface ViewportMatcher {
  /** The bot passes the owner and version filters and has at least one account shown. */
  shows(state: BotState): boolean;
  /** Per-cell counts of the accounts shown, as `MapCells.cells` (cells of `cellSizeOf(viewport)`). */
  countCells(states: Iterable<BotState>): number[];
}

export function viewportMatcher(viewport: MapViewport): ViewportMatcher {
  const statuses = new Set<BotStatus>(viewport.statuses);
  const owner = viewport.owner.toLowerCase();
  const isBotShown = (state: BotState) =>
    (owner === '' || state.owner.username.toLowerCase().includes(owner)) &&
    versionMatches(state.version, viewport.version);
  const isAccountShown = ({ status, position: { x, y } }: BotAccount) =>
    x >= viewport.minX &&
    x <= viewport.maxX &&
    y >= viewport.minY &&
    y <= viewport.maxY &&
    (statuses.size === 0 || statuses.has(status));

  return {
    shows: (state) => isBotShown(state) && state.accounts.some(isAccountShown),
    countCells(states) {
      const cellSize = cellSizeOf(viewport);
      const counts = new Map<number, number[]>();
      for (const state of states) {
        if (!isBotShown(state)) continue;
        for (const account of state.accounts) {
          if (!isAccountShown(account)) continue;
          const column = mapCellOf(account.position.x, cellSize);
          const row = mapCellOf(account.position.y, cellSize);
          const key = (column + CELL_KEY_OFFSET) * 2 * CELL_KEY_OFFSET + (row + CELL_KEY_OFFSET);
          let cell = counts.get(key);
          if (!cell) {
            cell = [column, row, ...BOT_STATUSES.map(() => 0)];
            counts.set(key, cell);
          }
          (cell[2 + (STATUS_INDEX.get(account.status) ?? 0)] as number)++;
        }
      }
      return [...counts.values()].flat();
    },
  };
}
