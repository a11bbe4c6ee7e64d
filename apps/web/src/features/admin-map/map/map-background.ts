import type { World } from '@bot/contracts';

/** The world's rectangle, under the zone tints. */
export const WORLD_FILL = '#161b22';
/**
 * Opacity of a zone's colour over WORLD_FILL: faint enough that every status marker stays more than
 * 20 ΔE from any tint under colour-vision-deficiency simulations (at 0.22 "Combat" came to 19 ΔE
 * of a green zone in protanopia; components/status-chip.test.ts checks it).
 */
export const ZONE_TINT_ALPHA = 0.18;

/** What painting the background needs of the renderer (its size, view and projection). */
export interface Projection {
  readonly width: number;
  readonly height: number;
  readonly view: { readonly scale: number };
  readonly world: World | null;
  bounds(): { minX: number; maxX: number; minY: number; maxY: number };
  toScreenX(x: number): number;
  toScreenY(y: number): number;
}

/**
 * The map's still layer: the dark page, the world's rectangle, its areas' colours, the cell grid
 * when cells are large enough to see, and the world's border. Painted again only on pan and zoom.
 */
export function paintBackground(ctx: CanvasRenderingContext2D, frame: Projection): void {
  const { width, height } = frame;
  const scale = frame.view.scale;
  ctx.fillStyle = '#0d1117';
  ctx.fillRect(0, 0, width, height);
  const { minX, maxX, minY, maxY } = frame.bounds();
  const left = frame.toScreenX(minX - 0.5);
  const top = frame.toScreenY(minY - 0.5);
  const right = frame.toScreenX(maxX + 0.5);
  const bottom = frame.toScreenY(maxY + 0.5);
  ctx.fillStyle = WORLD_FILL;
  ctx.fillRect(left, top, right - left, bottom - top);
  if (frame.world) {
    const colors = new Map(frame.world.areas.map((area) => [area.id, area.color]));
    ctx.globalAlpha = ZONE_TINT_ALPHA;
    for (const cell of frame.world.maps) {
      const sx = frame.toScreenX(cell.x - 0.5);
      const sy = frame.toScreenY(cell.y - 0.5);
      if (sx > width || sy > height || sx + scale < 0 || sy + scale < 0) continue;
      ctx.fillStyle = colors.get(cell.areaId) ?? '#30363d';
      ctx.fillRect(sx, sy, Math.ceil(scale), Math.ceil(scale));
    }
    ctx.globalAlpha = 1;
  }
  if (scale >= 6) {
    ctx.strokeStyle = 'rgba(255,255,255,0.06)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = minX; x <= maxX + 1; x++) {
      const sx = Math.round(frame.toScreenX(x - 0.5)) + 0.5;
      if (sx < 0 || sx > width) continue;
      ctx.moveTo(sx, Math.max(0, top));
      ctx.lineTo(sx, Math.min(height, bottom));
    }
    for (let y = minY; y <= maxY + 1; y++) {
      const sy = Math.round(frame.toScreenY(y - 0.5)) + 0.5;
      if (sy < 0 || sy > height) continue;
      ctx.moveTo(Math.max(0, left), sy);
      ctx.lineTo(Math.min(width, right), sy);
    }
    ctx.stroke();
  }
  ctx.strokeStyle = 'rgba(255,255,255,0.25)';
  ctx.strokeRect(left, top, right - left, bottom - top);
}
