import type { MapViewport } from '@bot/contracts';
import type { MapFilter } from '../render/fleet-buffers.ts';

const WORLD_LIMIT = 1000;
/** Bounds snap outward to this many map cells: small pans ask nothing new of the hub. */
const SNAP = 16;

export interface ViewportInput {
  /** The world area on screen. */
  area: { minX: number; minY: number; maxX: number; maxY: number };
  /** Map cells per cluster when zoomed out, null when every account is drawn. */
  cellSize: number | null;
  filter: MapFilter;
}

/**
 * What the map asks the hub to send on the viewport feed (decision 206): the area on screen plus
 * half a screen on each side, snapped outward, and the filters. Equal inputs give equal viewports.
 */
export function mapViewportOf({ area, cellSize, filter }: ViewportInput): MapViewport {
  const marginX = (area.maxX - area.minX) / 2;
  const marginY = (area.maxY - area.minY) / 2;
  const snap = Math.max(SNAP, cellSize ?? 0);
  const down = (value: number) => clamp(Math.floor(value / snap) * snap);
  const up = (value: number) => clamp(Math.ceil(value / snap) * snap);
  return {
    minX: down(area.minX - marginX),
    minY: down(area.minY - marginY),
    maxX: up(area.maxX + marginX),
    maxY: up(area.maxY + marginY),
    cellSize,
    statuses: [...filter.statuses],
    owner: filter.owner.trim(),
    version: filter.version.trim(),
  };
}

function clamp(value: number): number {
  return Math.min(WORLD_LIMIT, Math.max(-WORLD_LIMIT, value));
}
