/**
 * Staff maps on the full feed and on the viewport feed (decision 206), for `run.ts --map-feed`:
 * what one staff browser receives per second, and the server's CPU, in the same run.
 */
import os from 'node:os';
import type { MapViewport } from '@bot/contracts';
import { compared, type Figure } from '../shared.ts';
import type { Measurement } from './measurement.ts';

export const MAP_FEED_HEADING = '## Staff map feed';
export const MAP_FEED_RECORD_KEY = 'mapFeed';

const WORLD = { minX: -1000, minY: -1000, maxX: 1000, maxY: 1000 };
const NO_FILTER = { statuses: [], owner: '', version: '' };

/**
 * The two maps of the viewport run: the whole world at the widest zoom (the web map's clusters are
 * 36 px; at its smallest scale, 1.5 px per map cell, that is 24 map cells) and a 250 × 250 area
 * (a sixty-fourth of the world) zoomed in.
 */
export const mapFeedWatchers: MapViewport[] = [
  { ...WORLD, cellSize: 24, ...NO_FILTER },
  { minX: -125, minY: -125, maxX: 125, maxY: 125, cellSize: null, ...NO_FILTER },
];

interface MapFeedRow {
  full: Measurement;
  viewport: Measurement;
}

const kb = (bytes: number | undefined) => `${((bytes ?? 0) / 1024).toFixed(1)} KB/s`;
const cpuShare = (row: Measurement) => `${(row.cpuShare * 100).toFixed(0)} % of a core`;

export function renderMapFeed(
  rows: MapFeedRow[],
  startedAt: Date,
  timing: { durationMs: number; warmupMs: number },
): string {
  const lines = [
    MAP_FEED_HEADING,
    '',
    `Measured by \`npm run bench:realtime -- --map-feed\` (\`bench/realtime/map-feed.ts\`) on ` +
      `${startedAt.toISOString().slice(0, 16)}Z, ${os.cpus().length} cores, Node ${process.version}. ` +
      'The same traffic twice on the real server (N bots at 1 update/s, 2 accounts each, spread over the ' +
      'whole world; one owner watcher for one bot in ten), ' +
      `${timing.durationMs / 1000} s measured after ${timing.warmupMs / 1000} s of warm-up:`,
    '',
    '- **full feed** (baseline, docs/specification.md §5): one staff map receiving every state (batched every 250 ms);',
    '- **viewport feed** (decision 206): two staff maps, one showing the whole world zoomed out (per-cell ' +
      'counts, cells of 24 map cells, every second) and one zoomed in on a sixty-fourth of the world ' +
      '(the states of the bots there).',
    '',
    'Received = characters of the Socket.IO packets a map received, per second (≈ bytes on the wire: ' +
      'compression is off). Server CPU is the whole process (bots, owners, history) in each run.',
    '',
    '| N | map | received | `map_cells` per second | server CPU |',
    '|---|---|---|---|---|',
  ];
  for (const { full, viewport } of rows) {
    lines.push(
      `| ${full.n} | full feed (baseline) | ${kb(full.adminBytesPerSecond[0])} | — | ${cpuShare(full)} |`,
      `| ${viewport.n} | viewport, whole world zoomed out | ${kb(viewport.adminBytesPerSecond[0])} | ` +
        `${(viewport.adminCellsPerSecond[0] ?? 0).toFixed(1)} | ${cpuShare(viewport)} (both maps) |`,
      `| ${viewport.n} | viewport, 1/64 of the world zoomed in | ${kb(viewport.adminBytesPerSecond[1])} | — | ″ |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** Goals: a map on the viewport feed receives at most a tenth of the full feed; the server pays no more. */
export function mapFeedFigures(rows: MapFeedRow[]): Figure[] {
  return rows.flatMap(({ full, viewport }) => {
    const baseline = full.adminBytesPerSecond[0] ?? 0;
    const received = (name: string, value: number) => {
      const figure = compared({
        name: `${full.n} bots: ${name}`,
        value,
        unit: 'B/s',
        baseline,
        goal: 'ratio ≤ 0.1',
      });
      return { ...figure, met: (figure.ratio ?? Infinity) <= 0.1 };
    };
    const cpu = compared({
      name: `${full.n} bots: server CPU with two viewport maps`,
      value: viewport.cpuShare * 100,
      unit: '% of a core',
      baseline: full.cpuShare * 100,
      goal: 'ratio ≤ 1.05',
    });
    return [
      received('received by a map zoomed out on the whole world', viewport.adminBytesPerSecond[0] ?? 0),
      received('received by a map zoomed in on 1/64 of the world', viewport.adminBytesPerSecond[1] ?? 0),
      { ...cpu, met: (cpu.ratio ?? Infinity) <= 1.05 },
    ];
  });
}
