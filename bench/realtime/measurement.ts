import os from 'node:os';
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
    const connect = compared({
      name: `${n} bots: time to connect every socket`,
      value: server.connectSeconds,
      unit: 's',
      baseline: relay.connectSeconds,
      goal: 'ratio ≤ 1.5',
    });
    // Latency is compared with the relay's where the relay itself is comfortable (under 70 % of a core).
    const ownerAgainstRelay = compared({
      name: `${n} bots: owner p99 against the relay`,
      value: server.ownerP99,
      unit: 'ms',
      baseline: relay.ownerP99,
      goal: 'ratio ≤ 1.2',
    });
    return [
      { ...connect, met: (connect.ratio ?? Infinity) <= 1.5 },
      ...(relay.cpuShare < 0.7
        ? [{ ...ownerAgainstRelay, met: (ownerAgainstRelay.ratio ?? Infinity) <= 1.2 }]
        : []),
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

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const pct = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(2)} %` : 'n/a');

/** What a realtime section states about its run. */
export interface SectionContext {
  startedAt: Date;
  heading: string;
  /** Where the server's database runs, in words. */
  database: string;
  postgres: boolean;
  durationMs: number;
  warmupMs: number;
}

/** The "Real-time" (or "Real-time on PostgreSQL") section of docs/benchmarks.md. */
export function renderSection(rows: Measurement[], context: SectionContext): string {
  const { startedAt, durationMs, warmupMs } = context;
  const lines: string[] = [];
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  lines.push(context.heading);
  lines.push('');
  lines.push(
    `Measured by \`npm run bench:realtime${context.postgres ? ' -- --postgres' : ''}\` (\`bench/realtime/\`) on ${startedAt.toISOString().slice(0, 16)}Z, ` +
      `${os.cpus().length} cores (${cpu}), Node ${process.version}. Each N: N bots sending 1 update/s ` +
      '(2 game accounts each), one owner watcher for one bot in ten, one admin watcher; ' +
      `${durationMs / 1000} s measured after ${warmupMs / 1000} s of warm-up. Load comes from separate processes ` +
      "(socket.io-client) on the same 2 cores; the target's CPU is its own `process.cpuUsage()`. Both targets " +
      'run compiled as `npm start` runs the server (esbuild, no tsx).',
  );
  lines.push('');
  lines.push(
    `- **server**: the real app (\`buildApp\`, ${context.database}), authentication, report ` +
      'validation (compiled fast path, zod for the rest), whitelist filter, state store, admin batches every 250 ms, per-minute history upserts.',
  );
  lines.push(
    '- **relay** (baseline): bare Socket.IO, same transport settings, each update relayed as is to the owner ' +
      'room and the admin room (no checks, no state, so no batching: one admin message per update).',
  );
  lines.push(
    '- *delivered / expected* counts bot states: one per update for the admin plus one per update of a watched ' +
      'bot for its owner. CPU per delivered state = target CPU time in the window / delivered states. ' +
      'Memory per socket = (heap after a full collection at the end − heap before any client) / connected ' +
      "sockets, the goal's measure: the server's RSS also holds the embedded database's WebAssembly memory, " +
      'which grows and shrinks by hundreds of megabytes with its own work (the RSS column, same formula, shows it).',
  );
  lines.push('');
  lines.push(
    '| N | target | sockets | delivered / expected | owner p50 | owner p99 | admin p50 | admin p99 | admin messages | CPU per delivered state | target CPU | RSS per socket | load avg |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    lines.push(
      `| ${row.n} | ${row.target} | ${row.sockets}${row.failed ? ` (${row.failed} failed)` : ''} | ` +
        `${row.delivered} / ${row.expected} (${pct(row.delivered, row.expected)}) | ${fmt(row.ownerP50)} ms | ` +
        `${fmt(row.ownerP99)} ms | ${fmt(row.adminP50)} ms | ${fmt(row.adminP99)} ms | ${row.adminMessages} | ` +
        `${fmt(row.cpuMicros / Math.max(1, row.delivered), 2)} µs | ${fmt(row.cpuShare * 100, 0)} % of a core | ` +
        `${fmt(row.rssPerSocketKb)} KB (heap ${fmt(row.heapPerSocketKb)}) | ${fmt(row.load)} |`,
    );
  }
  lines.push('');
  lines.push(
    'Ratios server / relay (goal: CPU per delivered state ≤ 1.3, heap per socket ≤ 1.5, 100 % delivery, owner p99 ≤ 100 ms, admin p99 ≤ 500 ms):',
  );
  lines.push('');
  lines.push(
    '| N | CPU per delivered state | heap per socket | RSS per socket | owner p99 | admin p99 | server delivery | verdict |',
  );
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const n of [...new Set(rows.map((row) => row.n))]) {
    const server = rows.find((row) => row.n === n && row.target === 'server');
    const relay = rows.find((row) => row.n === n && row.target === 'relay');
    if (!server || !relay) continue;
    const cpuRatio =
      server.cpuMicros / Math.max(1, server.delivered) / (relay.cpuMicros / Math.max(1, relay.delivered));
    const heapRatio = server.heapPerSocketKb / relay.heapPerSocketKb;
    const rssRatio = server.rssPerSocketKb / relay.rssPerSocketKb;
    const delivery = server.delivered / Math.max(1, server.expected);
    const misses: string[] = [];
    if (cpuRatio > 1.3) misses.push('CPU');
    if (!(heapRatio > 0 && heapRatio <= 1.5)) misses.push('memory');
    if (delivery < 0.9999) misses.push('delivery');
    if (!(server.ownerP99 <= 100)) misses.push('owner p99');
    if (!(server.adminP99 <= 500)) misses.push('admin p99');
    lines.push(
      `| ${n} | ${fmt(cpuRatio, 2)} | ${fmt(heapRatio, 2)} | ${fmt(rssRatio, 2)} | ${fmt(server.ownerP99 / relay.ownerP99, 2)} | ` +
        `${fmt(server.adminP99 / relay.adminP99, 2)} | ` +
        `${pct(server.delivered, server.expected)} | ${misses.length ? `misses: ${misses.join(', ')}` : 'meets the goal'} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
