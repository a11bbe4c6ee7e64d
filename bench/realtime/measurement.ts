import { compared, type Figure } from '../shared.ts';
import type { TargetName } from './targets.ts';

/** One target's figures at one size (bench/realtime/run.ts measures them; the map feed reads them). */
export interface Measurement {
  target: TargetName;
  n: number;
  sockets: number;
  connectSeconds: number;
  failed: number;
  expected: number;
  delivered: number;
  ownerExpected: number;
  ownerDelivered: number;
  adminMessages: number;
  ownerP50: number;
  ownerP99: number;
  adminP50: number;
  adminP99: number;
  /** Per admin watcher: characters received per second (Socket.IO packets), `map_cells` per second. */
  adminBytesPerSecond: number[];
  adminCellsPerSecond: number[];
  cpuMicros: number;
  cpuShare: number;
  rssPerSocketKb: number;
  heapPerSocketKb: number;
  rssMb: number;
  disconnects: number;
  refusals: number;
  reasons: Record<string, number>;
  hub: unknown;
  /** 1-minute load average of the machine at the end of the window (other work shares the cores). */
  load: number;
}

/** The recorded figures of a run: each goal against the relay's baseline of the same run. */
export function realtimeFigures(rows: Measurement[]): Figure[] {
  return [...new Set(rows.map((row) => row.n))].flatMap((n) => {
    const server = rows.find((row) => row.n === n && row.target === 'server');
    const relay = rows.find((row) => row.n === n && row.target === 'relay');
    if (!server || !relay) return [];
    const cpu = (row: Measurement) => row.cpuMicros / Math.max(1, row.delivered);
    const latencyAtMost = (label: string, key: 'ownerP99' | 'adminP99', goalMs: number): Figure => ({
      ...compared({
        name: `${n} bots: ${label}`,
        value: server[key],
        unit: 'ms',
        baseline: relay[key],
        goal: `≤ ${goalMs} ms`,
      }),
      met: server[key] <= goalMs,
    });
    const cpuPerState = compared({
      name: `${n} bots: CPU per delivered state`,
      value: cpu(server),
      unit: 'µs',
      baseline: cpu(relay),
      goal: 'ratio ≤ 1.3',
    });
    const heap = compared({
      name: `${n} bots: heap per socket`,
      value: server.heapPerSocketKb,
      unit: 'KB',
      baseline: relay.heapPerSocketKb,
      goal: 'ratio ≤ 1.5',
    });
    return [
      { ...cpuPerState, met: (cpuPerState.ratio ?? Infinity) <= 1.3 },
      { ...heap, met: (heap.ratio ?? 0) > 0 && (heap.ratio ?? Infinity) <= 1.5 },
      compared({
        name: `${n} bots: RSS per socket (no goal: holds the embedded database's memory)`,
        value: server.rssPerSocketKb,
        unit: 'KB',
        baseline: relay.rssPerSocketKb,
      }),
      latencyAtMost('owner p99', 'ownerP99', 100),
      latencyAtMost('admin p99', 'adminP99', 500),
      {
        name: `${n} bots: delivered`,
        value: (100 * server.delivered) / Math.max(1, server.expected),
        unit: '%',
        goal: '100 %',
        met: server.delivered === server.expected,
      },
    ];
  });
}
