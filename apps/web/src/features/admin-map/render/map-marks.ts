import { BOT_STATUSES, MAP_CELL_STRIDE, type MapCells, mapCellOf } from '@bot/contracts';
import { STATUS_COLORS } from '../../../components/status-chip.tsx';
import { clusterStatus } from './cluster-status.ts';
import { type FleetBuffers, STATUS_COUNT } from './fleet-buffers.ts';

/** Screen size of a cluster's cell, in pixels. */
export const CLUSTER_PIXELS = 36;

/** What drawing the marks needs of the renderer: its size, view and projection. */
export interface MarkFrame {
  readonly width: number;
  readonly height: number;
  readonly view: { readonly cx: number; readonly cy: number; readonly scale: number };
  readonly selectedHwid: string | null;
  readonly hoveredSlot: number;
  toScreenX(x: number): number;
  toScreenY(y: number): number;
  slotScreen(slot: number): [number, number];
}

/** Accounts per cell and status over the world's bounds, as clusters are drawn. */
export interface ClusterGrid {
  cellSize: number;
  originX: number;
  originY: number;
  columns: number;
  rows: number;
  /** `STATUS_COUNT` counts per cell, row by row. */
  counts: Uint32Array;
}

function rgba(hex: string): number {
  const value = Number.parseInt(hex.slice(1), 16);
  const r = (value >> 16) & 255;
  const g = (value >> 8) & 255;
  const b = value & 255;
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0; // little-endian ABGR
}
const STATUS_PIXELS = Uint32Array.from(BOT_STATUSES.map((status) => rgba(STATUS_COLORS[status])));
const STATUS_FILLS = BOT_STATUSES.map((status) => STATUS_COLORS[status]);

/** Stable sub-cell offset of a slot, so accounts on one map do not hide each other. */
export function jitter(slot: number, axis: number): number {
  const h = Math.imul(slot ^ (axis * 0x9e3779b1), 0x85ebca6b) >>> 0;
  return ((h % 1000) / 1000 - 0.5) * 0.7;
}

/**
 * Cluster counts: the nodes' own on the viewport feed (decision 206), else counted from the
 * accounts held here.
 */
export function clusterGrid(
  serverCells: readonly MapCells[] | null,
  fallbackCellSize: number,
  bounds: { minX: number; maxX: number; minY: number; maxY: number },
  b: FleetBuffers,
): ClusterGrid {
  const latest = serverCells?.at(-1);
  const cellSize = latest?.cellSize ?? fallbackCellSize;
  const { minX, maxX, minY, maxY } = bounds;
  const originX = mapCellOf(minX, cellSize);
  const originY = mapCellOf(minY, cellSize);
  const columns = mapCellOf(maxX, cellSize) - originX + 1;
  const rows = mapCellOf(maxY, cellSize) - originY + 1;
  const counts = new Uint32Array(columns * rows * STATUS_COUNT);
  const add = (column: number, row: number, status: number, count: number) => {
    if (column < 0 || row < 0 || column >= columns || row >= rows) return;
    (counts[(row * columns + column) * STATUS_COUNT + status] as number) += count;
  };
  if (serverCells) {
    for (const message of serverCells) {
      if (message.cellSize !== cellSize) continue; // a node still answering the previous zoom
      const { cells } = message;
      for (let at = 0; at < cells.length; at += MAP_CELL_STRIDE) {
        const column = (cells[at] as number) - originX;
        const row = (cells[at + 1] as number) - originY;
        for (let status = 0; status < STATUS_COUNT; status++)
          add(column, row, status, cells[at + 2 + status] as number);
      }
    }
  } else {
    for (let slot = 0; slot < b.highWater; slot++) {
      if (b.visible[slot] !== 1) continue;
      const column = mapCellOf(b.x[slot] as number, cellSize) - originX;
      add(column, mapCellOf(b.y[slot] as number, cellSize) - originY, b.status[slot] as number, 1);
    }
  }
  return { cellSize, originX, originY, columns, rows, counts };
}

/** Each visible account as a square of pixels in its status colour, written into `pixels`. */
export function drawPoints(pixels: Uint32Array, b: FleetBuffers, frame: MarkFrame): void {
  const { width, height } = frame;
  const scale = frame.view.scale;
  // Big enough to find and hover at the default zoom (they were 2 px), growing with the zoom.
  const size = Math.max(5, Math.min(11, Math.round(4 + scale * 0.3)));
  const half = size >> 1;
  const halfW = width / 2 - half;
  const halfH = height / 2 - half;
  const { cx, cy } = frame.view;
  for (let slot = 0; slot < b.highWater; slot++) {
    if (b.visible[slot] !== 1) continue;
    const px = Math.round(((b.x[slot] as number) + jitter(slot, 1) - cx) * scale + halfW);
    const py = Math.round(((b.y[slot] as number) + jitter(slot, 2) - cy) * scale + halfH);
    if (px < 0 || py < 0 || px + size > width || py + size > height) continue;
    const color = STATUS_PIXELS[b.status[slot] as number] as number;
    let row = py * width + px;
    for (let j = 0; j < size; j++, row += width) pixels.fill(color, row, row + size);
  }
}

/** Rings around the selected account's bots (white) and the hovered one (yellow). */
export function drawHighlights(ctx: CanvasRenderingContext2D, b: FleetBuffers, frame: MarkFrame): void {
  ctx.lineWidth = 2;
  if (frame.selectedHwid) {
    ctx.strokeStyle = '#ffffff';
    for (const slot of b.slotsOf(frame.selectedHwid)) {
      const [sx, sy] = frame.slotScreen(slot);
      ctx.beginPath();
      ctx.arc(sx, sy, 7, 0, Math.PI * 2);
      ctx.stroke();
    }
  }
  if (frame.hoveredSlot >= 0 && b.alive[frame.hoveredSlot] === 1) {
    const [sx, sy] = frame.slotScreen(frame.hoveredSlot);
    ctx.strokeStyle = '#ffeb3b';
    ctx.beginPath();
    ctx.arc(sx, sy, 5, 0, Math.PI * 2);
    ctx.stroke();
  }
}

/** Each non-empty cluster as a disc in its dominant status's colour, with its count. */
export function drawClusters(ctx: CanvasRenderingContext2D, grid: ClusterGrid, frame: MarkFrame): void {
  const { cellSize: cells, originX, originY, columns, rows, counts } = grid;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = '600 11px system-ui, sans-serif';
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const base = (row * columns + column) * STATUS_COUNT;
      let total = 0;
      for (let status = 0; status < STATUS_COUNT; status++) total += counts[base + status] as number;
      if (total === 0) continue;
      const worldX = (column + originX) * cells + (cells - 1) / 2;
      const worldY = (row + originY) * cells + (cells - 1) / 2;
      const sx = frame.toScreenX(worldX);
      const sy = frame.toScreenY(worldY);
      const radius = Math.min(CLUSTER_PIXELS / 2 - 1, 5 + Math.sqrt(total) * 1.2);
      ctx.globalAlpha = 0.85;
      ctx.fillStyle = STATUS_FILLS[clusterStatus(counts, base)] as string;
      ctx.beginPath();
      ctx.arc(sx, sy, radius, 0, Math.PI * 2);
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.fillStyle = '#111';
      ctx.fillText(String(total), sx, sy);
    }
  }
}
