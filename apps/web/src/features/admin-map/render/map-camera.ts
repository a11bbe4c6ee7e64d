import { WORLD_MAX_COORD, WORLD_MIN_COORD, type World } from '@bot/contracts';
import { CLUSTER_PIXELS } from './map-marks.ts';

/** Below this many pixels per map cell, accounts are grouped into clusters. */
const CLUSTER_BELOW_SCALE = 5;
const MIN_SCALE = 1.5;
const MAX_SCALE = 80;

export interface View {
  /** World coordinates at the canvas centre. */
  cx: number;
  cy: number;
  /** Pixels per map cell. */
  scale: number;
}

/**
 * Where the map looks: the view (centre and zoom) over the world, the canvas size, and the conversions
 * between world and screen. No drawing here: the renderer draws what this frames, and hears each
 * change through `viewChanged`.
 */
export class MapCamera {
  readonly view: View = { cx: 0, cy: 0, scale: 8 };
  width = 0;
  height = 0;
  world: World | null = null;
  /** Counts the changes of what the canvas frames (the description says which one it states). */
  revision = 0;

  /** The world's extent: the loaded world's, else the whole coordinate range. */
  bounds() {
    return (
      this.world?.bounds ?? {
        minX: WORLD_MIN_COORD,
        maxX: WORLD_MAX_COORD,
        minY: WORLD_MIN_COORD,
        maxY: WORLD_MAX_COORD,
      }
    );
  }

  /** Fits the whole world in the canvas. */
  fit(): void {
    const { minX, maxX, minY, maxY } = this.bounds();
    this.view.cx = (minX + maxX) / 2;
    this.view.cy = (minY + maxY) / 2;
    const scale = Math.min(this.width / (maxX - minX + 2), this.height / (maxY - minY + 2));
    this.view.scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
    this.changed();
  }

  panBy(dx: number, dy: number): void {
    this.view.cx -= dx / this.view.scale;
    this.view.cy -= dy / this.view.scale;
    this.changed();
  }

  /** Zooms by `factor` keeping the world point under (sx, sy) in place. */
  zoomAt(sx: number, sy: number, factor: number): void {
    const [wx, wy] = this.toWorld(sx, sy);
    this.view.scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.view.scale * factor));
    this.view.cx = wx - (sx - this.width / 2) / this.view.scale;
    this.view.cy = wy - (sy - this.height / 2) / this.view.scale;
    this.changed();
  }

  /** The framing changed (a pan, a zoom, a new canvas size). */
  protected changed(): void {
    this.revision++;
    this.viewChanged();
  }

  /** Called on each change of the framing. */
  protected viewChanged(): void {}

  /** Zoomed out far enough that the map asks for clusters (each account is drawn beyond). */
  isClustered(): boolean {
    return this.view.scale < CLUSTER_BELOW_SCALE;
  }

  /** Map cells per side of a cluster at the current zoom. */
  clusterCellSize(): number {
    return Math.max(1, Math.ceil(CLUSTER_PIXELS / this.view.scale));
  }

  /** The world area the canvas shows. */
  visibleArea(): { minX: number; minY: number; maxX: number; maxY: number } {
    const [minX, minY] = this.toWorld(0, 0);
    const [maxX, maxY] = this.toWorld(this.width, this.height);
    return { minX, minY, maxX, maxY };
  }

  toScreenX(x: number): number {
    return (x - this.view.cx) * this.view.scale + this.width / 2;
  }

  toScreenY(y: number): number {
    return (y - this.view.cy) * this.view.scale + this.height / 2;
  }

  toWorld(sx: number, sy: number): [number, number] {
    return [
      (sx - this.width / 2) / this.view.scale + this.view.cx,
      (sy - this.height / 2) / this.view.scale + this.view.cy,
    ];
  }
}
