import { BOT_STATUS_LABELS, BOT_STATUSES, type BotStatus, countOf } from '@bot/contracts';
import type { RefObject } from 'react';
import type { FleetBuffers } from '../render/fleet-buffers.ts';
import type { MapEngine } from '../render/use-map-engine.ts';

/** The tooltip's widest box: it is moved left to stay inside the map near the right edge. */
const TOOLTIP_WIDTH = 330;

/** Where a mouse or pointer event falls on the canvas, in its pixels. */
export function canvasPoint(canvas: HTMLCanvasElement, event: MouseEvent): [number, number] {
  const rect = canvas.getBoundingClientRect();
  return [event.clientX - rect.left, event.clientY - rect.top];
}

/** What the tooltip says about the account in `slot`. */
function accountLines(buffers: FleetBuffers, slot: number): string[] {
  const status = BOT_STATUSES[buffers.status[slot] ?? 0] as BotStatus;
  return [
    `Propriétaire : ${buffers.owners[buffers.owner[slot] ?? 0] ?? ''}`,
    `HWID : ${buffers.hwidOf[slot] ?? ''}`,
    `Personnage : ${buffers.characterOf[slot] ?? ''} (${buffers.nameOf[slot] ?? ''})`,
    `Statut : ${BOT_STATUS_LABELS[status]}`,
    `Position : [${buffers.x[slot]}, ${buffers.y[slot]}]`,
  ];
}

function clusterLines(count: number): string[] {
  return [countOf(count, 'compte de jeu', 'comptes de jeu'), 'Zoomez pour les voir un par un.'];
}

/**
 * The hover tooltip of the map: the account under the pointer, else the cluster (zoomed out, or
 * counted by a node). Written straight to its element: hovering must not re-render the page.
 */
export function createHoverTooltip(element: RefObject<HTMLElement | null>, { buffers, renderer }: MapEngine) {
  const show = (sx: number, sy: number, lines: string[]) => {
    const tip = element.current;
    if (!tip) return;
    tip.textContent = lines.join('\n');
    tip.style.display = 'block';
    tip.style.transform = `translate(${Math.min(sx + 14, renderer.width - TOOLTIP_WIDTH)}px, ${Math.max(0, sy - 10)}px)`;
  };
  const highlight = (slot: number) => {
    if (renderer.hoveredSlot === slot) return;
    renderer.hoveredSlot = slot;
    renderer.markDirty();
  };
  const hide = () => {
    if (element.current) element.current.style.display = 'none';
    highlight(-1);
  };
  const hoverAt = (sx: number, sy: number) => {
    const slot = renderer.isClustered() ? -1 : renderer.pick(sx, sy);
    if (slot >= 0) {
      show(sx, sy, accountLines(buffers, slot));
      highlight(slot);
      return;
    }
    const cluster = renderer.pickCluster(sx, sy);
    if (cluster) show(sx, sy, clusterLines(cluster.count));
    else hide();
  };
  return { hoverAt, hide };
}
