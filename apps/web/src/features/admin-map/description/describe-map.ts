import { BOT_STATUS_LABELS, BOT_STATUSES, type BotStatus } from '@bot/contracts';
import type { MapEngine } from '../render/use-map-engine.ts';

/** Beyond this many accounts the list would drown a screen reader (and the page): only their count. */
export const MAX_LISTED_ACCOUNTS = 50;

interface DescribedAccount {
  hwid: string;
  owner: string;
  name: string;
  character: string;
  status: string;
  x: number;
  y: number;
}

interface DescribedArea {
  id: number;
  name: string;
  /** Where its name is painted on the canvas, in its pixels; absent when not painted. */
  label?: { x: number; y: number };
}

/** The canvas in words: what a screen reader user is told, and what the journeys read. */
export interface MapDescription {
  /** `revision`: the framing this describes (the canvas's `data-view-revision` is the current one). */
  view: { cx: number; cy: number; scale: number; isClustered: boolean; revision: number };
  area: { minX: number; minY: number; maxX: number; maxY: number };
  /** Accounts held here that pass the filter (those the nodes count for clusters are not). */
  shownCount: number;
  /** Those accounts one by one, or null when there are more than MAX_LISTED_ACCOUNTS. */
  accounts: DescribedAccount[] | null;
  areas: DescribedArea[];
}

function describeAccounts({ buffers }: MapEngine): DescribedAccount[] | null {
  if (buffers.visibleCount > MAX_LISTED_ACCOUNTS) return null;
  const accounts: DescribedAccount[] = [];
  for (let slot = 0; slot < buffers.highWater; slot++) {
    if (buffers.visible[slot] !== 1) continue;
    accounts.push({
      hwid: buffers.hwidOf[slot] ?? '',
      owner: buffers.owners[buffers.owner[slot] ?? 0] ?? '',
      name: buffers.nameOf[slot] ?? '',
      character: buffers.characterOf[slot] ?? '',
      status: BOT_STATUS_LABELS[BOT_STATUSES[buffers.status[slot] ?? 0] as BotStatus],
      x: buffers.x[slot] ?? 0,
      y: buffers.y[slot] ?? 0,
    });
  }
  return accounts;
}

function describeAreas({ renderer }: MapEngine): DescribedArea[] {
  const painted = new Map(renderer.areaLabels.map((label) => [label.name, label]));
  return (renderer.world?.areas ?? []).map(({ id, name }) => {
    const label = painted.get(name);
    return label ? { id, name, label: { x: label.x, y: label.y } } : { id, name };
  });
}

export function describeMap(engine: MapEngine): MapDescription {
  const { renderer, buffers } = engine;
  return {
    view: { ...renderer.view, isClustered: renderer.isClustered(), revision: renderer.revision },
    area: renderer.visibleArea(),
    shownCount: buffers.visibleCount,
    accounts: describeAccounts(engine),
    areas: describeAreas(engine),
  };
}
