import { type MapCells, mapCellOf, type World } from '@bot/contracts';
import { type FleetBuffers, STATUS_COUNT } from './fleet-buffers.ts';
import { type AreaLabel, paintBackground } from './map-background.ts';
import { MapCamera } from './map-camera.ts';
import {
  CLUSTER_PIXELS,
  type ClusterGrid,
  clusterGrid,
  drawClusters,
  drawHighlights,
  drawPoints,
  jitter,
} from './map-marks.ts';

export interface FrameStats {
  frames: number;
  drawn: number;
  /** Milliseconds spent drawing, last frames (ring buffer). */
  drawMs: number[];
}

/**
 * Draws the fleet on a 2D canvas, only when something changed (data, view, hover): accounts are
 * written as pixels into one ImageData (cost independent of canvas API calls per bot), clusters and
 * highlights are vector shapes on top. The background (grid, areas) is cached and rebuilt on pan/zoom.
 */
export class MapRenderer extends MapCamera {
  selectedHwid: string | null = null;
  hoveredSlot = -1;
  /**
   * Viewport feed (decision 206): the nodes' per-cell counts, drawn when zoomed out instead of
   * counting the accounts held here (which are then only those in view). Null on the full feed.
   */
  private serverCells: readonly MapCells[] | null = null;
  readonly stats: FrameStats = { frames: 0, drawn: 0, drawMs: [] };
  /** The zones' names painted with the background, where (the text alternative lists them). */
  areaLabels: readonly AreaLabel[] = [];

  private readonly context: CanvasRenderingContext2D;
  private readonly background: HTMLCanvasElement;
  private image: ImageData | null = null;
  private pixels = new Uint32Array(0);
  private backgroundPixels = new Uint32Array(0);
  private isBackgroundStale = true;
  /** After a background change the whole canvas is uploaded once. */
  private needsFullUpload = true;
  private isDirty = true;
  private drawnVersion = -1;
  private frameHandle = 0;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly buffers: FleetBuffers,
  ) {
    super();
    const context = canvas.getContext('2d', { alpha: false });
    if (!context) throw new Error('Canvas 2D indisponible');
    this.context = context;
    this.background = document.createElement('canvas');
    canvas.dataset.viewRevision = String(this.revision);
  }

  start(): void {
    const loop = () => {
      this.frameHandle = requestAnimationFrame(loop);
      this.stats.frames++;
      if (this.isDirty || this.drawnVersion !== this.buffers.version) this.draw();
    };
    this.frameHandle = requestAnimationFrame(loop);
  }

  stop(): void {
    cancelAnimationFrame(this.frameHandle);
  }

  markDirty(): void {
    this.isDirty = true;
  }

  resize(width: number, height: number): void {
    const w = Math.max(1, Math.floor(width));
    const h = Math.max(1, Math.floor(height));
    if (w === this.width && h === this.height) return;
    this.width = w;
    this.height = h;
    this.canvas.width = w;
    this.canvas.height = h;
    this.background.width = w;
    this.background.height = h;
    this.image = this.context.createImageData(w, h);
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.changed();
  }

  setServerCells(cells: readonly MapCells[] | null): void {
    this.serverCells = cells;
    this.isDirty = true;
  }

  setWorld(world: World | null): void {
    this.world = world;
    this.isBackgroundStale = true;
    this.isDirty = true;
  }

  protected override viewChanged(): void {
    this.isBackgroundStale = true;
    this.isDirty = true;
    // The framing now, next to the description that states it a moment later (e2e/map-reading.ts).
    this.canvas.dataset.viewRevision = String(this.revision);
  }

  /** Clusters on screen: zoomed out, or zoomed in on an area where nodes sent counts (decision 206). */
  drawsClusters(): boolean {
    return this.isClustered() || (this.serverCells?.length ?? 0) > 0;
  }

  /** Screen position of an account (cell centre plus its stable offset). */
  slotScreen(slot: number): [number, number] {
    const b = this.buffers;
    return [
      this.toScreenX((b.x[slot] ?? 0) + jitter(slot, 1)),
      this.toScreenY((b.y[slot] ?? 0) + jitter(slot, 2)),
    ];
  }

  /** The visible account nearest to a screen point (within `radius` px), or -1. */
  pick(sx: number, sy: number, radius = 8): number {
    const b = this.buffers;
    const scale = this.view.scale;
    const halfW = this.width / 2;
    const halfH = this.height / 2;
    const { cx, cy } = this.view;
    let best = -1;
    let bestDistance = radius * radius;
    for (let slot = 0; slot < b.highWater; slot++) {
      if (b.visible[slot] !== 1) continue;
      const dx = ((b.x[slot] as number) + jitter(slot, 1) - cx) * scale + halfW - sx;
      const dy = ((b.y[slot] as number) + jitter(slot, 2) - cy) * scale + halfH - sy;
      const distance = dx * dx + dy * dy;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = slot;
      }
    }
    return best;
  }

  /** Accounts of the cluster under a screen point (when clusters are drawn). */
  pickCluster(sx: number, sy: number): { count: number; cellX: number; cellY: number } | null {
    if (!this.drawsClusters()) return null;
    const grid = this.clusterGrid();
    const [wx, wy] = this.toWorld(sx, sy);
    const cellX = mapCellOf(wx, grid.cellSize);
    const cellY = mapCellOf(wy, grid.cellSize);
    const column = cellX - grid.originX;
    const row = cellY - grid.originY;
    if (column < 0 || row < 0 || column >= grid.columns || row >= grid.rows) return null;
    let count = 0;
    const base = (row * grid.columns + column) * STATUS_COUNT;
    for (let status = 0; status < STATUS_COUNT; status++) count += grid.counts[base + status] as number;
    return count > 0 ? { count, cellX, cellY } : null;
  }

  /** Cluster counts: the nodes' own on the viewport feed, else counted from the accounts held here. */
  private clusterGrid(): ClusterGrid {
    return clusterGrid(this.serverCells, this.clusterCellSize(), this.bounds(), this.buffers);
  }

  private renderBackground(): void {
    const ctx = this.background.getContext('2d') as CanvasRenderingContext2D;
    this.areaLabels = paintBackground(ctx, this);
    this.backgroundPixels = new Uint32Array(ctx.getImageData(0, 0, this.width, this.height).data.buffer);
    this.isBackgroundStale = false;
    this.needsFullUpload = true;
  }

  draw(): void {
    const started = performance.now();
    this.isDirty = false;
    this.drawnVersion = this.buffers.version;
    if (!this.image || this.width === 0) return;
    if (this.isBackgroundStale) this.renderBackground();
    // Only the world's rectangle changes between frames: copy and upload just those rows/columns.
    const rect = this.worldRect();
    if (rect.isFull) this.pixels.set(this.backgroundPixels);
    else {
      for (let row = rect.top; row < rect.bottom; row++) {
        const start = row * this.width;
        this.pixels.set(
          this.backgroundPixels.subarray(start + rect.left, start + rect.right),
          start + rect.left,
        );
      }
    }
    if (this.isClustered()) {
      this.putImage(rect);
      drawClusters(this.context, this.clusterGrid(), this);
    } else {
      drawPoints(this.pixels, this.buffers, this);
      this.putImage(rect);
      drawHighlights(this.context, this.buffers, this);
      // Zoomed in where a node holds too many bots to send each: its counts, over the others' bots.
      if (this.drawsClusters()) drawClusters(this.context, this.clusterGrid(), this);
    }
    this.stats.drawn++;
    const ms = performance.now() - started;
    this.stats.drawMs.push(ms);
    if (this.stats.drawMs.length > 600) this.stats.drawMs.shift();
  }

  /** The world's bounds on screen (plus a margin for dots and rings), clipped to the canvas. */
  private worldRect() {
    const { minX, maxX, minY, maxY } = this.bounds();
    const margin = CLUSTER_PIXELS / 2 + 4;
    const left = Math.max(0, Math.floor(this.toScreenX(minX - 0.5)) - margin);
    const top = Math.max(0, Math.floor(this.toScreenY(minY - 0.5)) - margin);
    const right = Math.min(this.width, Math.ceil(this.toScreenX(maxX + 0.5)) + margin);
    const bottom = Math.min(this.height, Math.ceil(this.toScreenY(maxY + 0.5)) + margin);
    const isFull =
      this.needsFullUpload || (left === 0 && top === 0 && right === this.width && bottom === this.height);
    this.needsFullUpload = false;
    return { left, top, right: Math.max(left, right), bottom: Math.max(top, bottom), isFull };
  }

  private putImage(rect: {
    left: number;
    top: number;
    right: number;
    bottom: number;
    isFull: boolean;
  }): void {
    if (!this.image) return;
    if (rect.isFull) this.context.putImageData(this.image, 0, 0);
    else if (rect.right > rect.left && rect.bottom > rect.top) {
      this.context.putImageData(
        this.image,
        0,
        0,
        rect.left,
        rect.top,
        rect.right - rect.left,
        rect.bottom - rect.top,
      );
    }
  }
}
