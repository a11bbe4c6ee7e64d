import type { World } from '@bot/contracts';

/** The world's rectangle, under the zone tints. */
export const WORLD_FILL = '#161b22';
/**
 * Opacity of a zone's colour over WORLD_FILL: faint enough that every status marker stays more than
 * 20 ΔE from any tint under colour-vision-deficiency simulations (at 0.22 "Combat" came to 19 ΔE
 * of a green zone in protanopia; components/status-chip.test.ts checks it).
 */
export const ZONE_TINT_ALPHA = 0.18;

/** A zone's name as painted, at the centre of its maps on screen. */
export interface AreaLabel {
  name: string;
  x: number;
  y: number;
}

/** Each area's centre in world coordinates (the mean of its maps), computed once per world. */
const areaCentres = new WeakMap<World, { name: string; x: number; y: number; spanX: number }[]>();
function centresOf(world: World) {
  const known = areaCentres.get(world);
  if (known) return known;
  const sums = new Map<number, { x: number; y: number; count: number; minX: number; maxX: number }>();
  for (const cell of world.maps) {
    const sum = sums.get(cell.areaId) ?? { x: 0, y: 0, count: 0, minX: cell.x, maxX: cell.x };
    sum.x += cell.x;
    sum.y += cell.y;
    sum.count += 1;
    sum.minX = Math.min(sum.minX, cell.x);
    sum.maxX = Math.max(sum.maxX, cell.x);
    sums.set(cell.areaId, sum);
  }
  const centres = world.areas.flatMap((area) => {
    const sum = sums.get(area.id);
    return sum
      ? [{ name: area.name, x: sum.x / sum.count, y: sum.y / sum.count, spanX: sum.maxX - sum.minX + 1 }]
      : [];
  });
  areaCentres.set(world, centres);
  return centres;
}

/**
 * The zones' names, light text with a dark outline over the tints, where the zone is wide enough on
 * screen to hold its name (zoomed far out, the names would cover each other). Returns what it painted.
 */
function paintAreaNames(ctx: CanvasRenderingContext2D, frame: Projection, world: World): AreaLabel[] {
  const painted: AreaLabel[] = [];
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = 'rgba(13, 17, 23, 0.9)';
  ctx.fillStyle = 'rgba(230, 237, 243, 0.85)';
  for (const centre of centresOf(world)) {
    const x = frame.toScreenX(centre.x);
    const y = frame.toScreenY(centre.y);
    const width = ctx.measureText(centre.name).width;
    if (width > centre.spanX * frame.view.scale) continue;
    if (x + width / 2 < 0 || x - width / 2 > frame.width || y < 0 || y > frame.height) continue;
    ctx.strokeText(centre.name, x, y);
    ctx.fillText(centre.name, x, y);
    painted.push({ name: centre.name, x, y });
  }
  return painted;
}

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
 * when cells are large enough to see, the world's border and the zones' names (returned). Painted
 * again only on pan and zoom.
 */
export function paintBackground(ctx: CanvasRenderingContext2D, frame: Projection): AreaLabel[] {
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
  ctx.lineWidth = 1;
  ctx.strokeRect(left, top, right - left, bottom - top);
  return frame.world ? paintAreaNames(ctx, frame, frame.world) : [];
}
