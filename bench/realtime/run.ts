/**
 * `npm run bench:realtime [-- --quick] [--sizes 1000,5000] [--duration 20] [--no-write] [--acks]`
 * `npm run bench:realtime -- --storm 3000,10000 [--steady 1000]`: the reconnect storm (storm.ts)
 * `npm run bench:realtime -- --postgres`: the server on a PostgreSQL server of its own (bench/postgres.ts)
 * `npm run bench:realtime -- --map-feed [--sizes 10000]`: staff maps on the full and the viewport feed (map-feed.ts)
 * `npm run bench:realtime -- --overload [--quick]`: a node's capacity, then twice as many bots (overload.ts)
 *
 * The same traffic against the real server and against a bare Socket.IO relay, in one run: N bots
 * sending 1 update/s, one owner watcher for one bot in ten, one admin watcher. Targets and load run
 * in separate processes; the target's own CPU (process.cpuUsage) and RSS are measured over IPC.
 * Results go to the "Real-time" section of docs/benchmarks.md.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { MapViewport } from '@bot/contracts';
import { startBenchPostgres } from '../postgres.ts';
import {
  collectResults,
  exited,
  freePort,
  percentile,
  recordBenchmark,
  recordedDetails,
  sleep,
} from '../shared.ts';
import {
  MAP_FEED_HEADING,
  MAP_FEED_RECORD_KEY,
  mapFeedFigures,
  mapFeedWatchers,
  renderMapFeed,
} from './map-feed.ts';
import { type Measurement, realtimeFigures, renderSection } from './measurement.ts';
import {
  findCapacity,
  OVERLOAD_HEADING,
  OVERLOAD_RECORD_KEY,
  type OverloadOptions,
  overloadFigures,
  pastCapacity,
  renderOverload,
} from './overload.ts';
import { type BenchFixture, preciseNow, type WorkerCommand } from './protocol.ts';
import { reconnectStorm, renderStorm, type StormResult, stormFigures } from './storm.ts';
import { forkLoadWorker, startLoad, startTarget, statsOf, type TargetName } from './targets.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    'no-write': { type: 'boolean', default: false },
    targets: { type: 'string', default: 'relay,server' },
    merge: { type: 'boolean', default: false },
    storm: { type: 'string' },
    postgres: { type: 'boolean', default: false },
    steady: { type: 'string', default: '1000' },
    'map-feed': { type: 'boolean', default: false },
    overload: { type: 'boolean', default: false },
    /** Reports ask for the server's answer, as the SDK's do (decision 923). */
    acks: { type: 'boolean', default: false },
  },
});

const sizes = values.sizes
  ? values.sizes.split(',').map(Number)
  : values.quick
    ? [1000]
    : [1000, 5000, 10_000];
const durationMs = Number(values.duration) * 1000;
const HEADING = values.postgres ? '## Real-time on PostgreSQL' : '## Real-time';
const RECORD_KEY = values.postgres ? 'realtimePostgres' : 'realtime';
const DATABASE = values.postgres
  ? 'a PostgreSQL server of its own, whose processes’ CPU counts as the target’s; memory is the target’s only'
  : 'embedded PGlite in-process: its CPU counts';
const warmupMs = Number(values.warmup) * 1000;
/** After the window, for its last states to arrive; between targets, for the machine to settle (shorter in toy runs). */
const GRACE_MS = Math.min(3000, durationMs / 2);
const PAUSE_MS = Math.min(2000, durationMs / 2);
const _here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

interface MeasureOptions {
  /** One admin watcher per entry (null: the whole fleet; else the viewport its map offers). */
  adminViewports?: (MapViewport | null)[];
  /** Online bots above which a map offering a viewport follows it (the server's default otherwise). */
  fullFeedMaxBots?: number;
}

async function measure(
  targetName: TargetName,
  n: number,
  options: MeasureOptions = {},
): Promise<Measurement> {
  const postgres = values.postgres && targetName === 'server' ? await startBenchPostgres() : undefined;
  const env: Record<string, string> =
    options.fullFeedMaxBots === undefined
      ? {}
      : { BENCH_FULL_FEED_MAX_BOTS: String(options.fullFeedMaxBots) };
  const { target, url, fixture } = await startTarget(targetName, n, await freePort(), postgres?.url, env);
  const children: ChildProcess[] = [target];
  /** CPU seconds of the target's database server so far (none on the embedded database). */
  const databaseCpu = () => postgres?.cpuSeconds() ?? 0;
  try {
    const idle = await statsOf(target, true);

    const botWorkerCount = n <= 1000 ? 1 : 2;
    const shares: BenchFixture['bots'][] = Array.from({ length: botWorkerCount }, () => []);
    for (const [index, bot] of fixture.bots.entries()) shares[index % botWorkerCount]!.push(bot);
    const workers = [
      ...shares.map((bots) => ({ bots, adminToken: null as string | null })),
      { bots: [] as BenchFixture['bots'], adminToken: fixture.adminToken },
    ].map((share) => {
      const worker = forkLoadWorker();
      children.push(worker);
      return { worker, share };
    });
    const connectStarted = Date.now();
    const load = ({ worker, share }: (typeof workers)[number]) =>
      startLoad(worker, {
        url,
        bots: share.bots,
        adminToken: share.adminToken,
        adminViewports: options.adminViewports,
        connectPerSecond: Math.ceil(1000 / botWorkerCount),
        acks: values.acks,
      });
    // The admin opens the map on a running fleet (the hub picks its feed from the fleet's size).
    const botsConnected = await Promise.all(workers.slice(0, -1).map(load));
    const connected = [...botsConnected, await load(workers.at(-1)!)];
    const connectSeconds = (Date.now() - connectStarted) / 1000;
    const failed = connected.reduce((total, c) => total + c.failed, 0);
    const sockets = connected.reduce((total, c) => total + c.bots + c.watchers + c.admins, 0);
    console.log(
      `  ${targetName} N=${n}: ${sockets} sockets in ${connectSeconds.toFixed(1)} s (${failed} failed)`,
    );

    await sleep(warmupMs);
    const from = preciseNow() + 300;
    const to = from + durationMs;
    for (const { worker } of workers) worker.send({ type: 'window', from, to } satisfies WorkerCommand);
    await sleep(from - preciseNow());
    const start = await statsOf(target, false);
    const databaseCpuAtStart = databaseCpu();
    await sleep(to - preciseNow());
    const end = await statsOf(target, false);
    const databaseCpuInWindow = databaseCpu() - databaseCpuAtStart;
    await sleep(GRACE_MS);
    const { results, sum, ownerLatencies, adminLatencies } = await collectResults(workers);
    // Memory after a full collection, once the window's last states have arrived: a forced GC at
    // the window's end held the target's loop for 235 ms at 10,000 bots, and the states sent just
    // before it made the owner p99 (every client still connected, so the figure is the same).
    const memory = await statsOf(target, true);
    const sent = sum('sent');
    const ownerExpected = sum('sentWatched');
    const ownerDelivered = sum('ownerReceived');
    const delivered = ownerDelivered + sum('adminStates');
    const cpuMicros = end.cpuMicros - start.cpuMicros + databaseCpuInWindow * 1e6;
    const perAdmin = (key: 'adminBytes' | 'adminCells') =>
      (options.adminViewports ?? [null]).map(
        (_, index) =>
          results.reduce((total, result) => total + (result[key][index] ?? 0), 0) / (durationMs / 1000),
      );
    for (const { worker } of workers) worker.send({ type: 'stop' } satisfies WorkerCommand);
    return {
      target: targetName,
      n,
      sockets,
      connectSeconds,
      failed,
      expected: sent + ownerExpected,
      delivered,
      ownerExpected,
      ownerDelivered,
      adminMessages: sum('adminMessages'),
      ownerP50: percentile(ownerLatencies, 50),
      ownerP99: percentile(ownerLatencies, 99),
      adminP50: percentile(adminLatencies, 50),
      adminP99: percentile(adminLatencies, 99),
      adminBytesPerSecond: perAdmin('adminBytes'),
      adminCellsPerSecond: perAdmin('adminCells'),
      cpuMicros,
      cpuShare: cpuMicros / 1000 / durationMs,
      rssPerSocketKb: (memory.rss - idle.rss) / 1024 / Math.max(1, sockets),
      heapPerSocketKb: (memory.heapUsed - idle.heapUsed) / 1024 / Math.max(1, sockets),
      rssMb: memory.rss / 1024 / 1024,
      disconnects: sum('disconnects'),
      refusals: sum('refusals'),
      load: os.loadavg()[0] ?? 0,
      reasons: results.reduce<Record<string, number>>((all, r) => {
        for (const [reason, count] of Object.entries(r.reasons)) all[reason] = (all[reason] ?? 0) + count;
        return all;
      }, {}),
      hub: end.hub ?? null,
    };
  } finally {
    target.send({ type: 'stop' });
    // The target closes the app and exits (writing its CPU profile when asked for one).
    await exited([target], 30_000);
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    postgres?.stop();
  }
}

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
/** Per N, the server against the relay: CPU per delivered state, memory per socket, owner p99, delivery. */
async function main(): Promise<void> {
  const startedAt = new Date();
  if (values.storm) return runStorm(startedAt);
  if (values['map-feed']) return runMapFeed(startedAt);
  if (values.overload) return runOverload(startedAt);
  const rows: Measurement[] = [];
  for (const n of sizes) {
    for (const target of values.targets.split(',') as TargetName[]) {
      console.log(`N=${n} ${target}...`);
      const row = await measure(target, n);
      console.log(
        `  delivered ${row.delivered}/${row.expected}, owner p50 ${fmt(row.ownerP50)} ms p99 ${fmt(row.ownerP99)} ms, admin p99 ${fmt(row.adminP99)} ms, ` +
          `CPU ${fmt(row.cpuMicros / Math.max(1, row.delivered), 2)} µs/state (${fmt(row.cpuShare * 100, 0)} %), ` +
          `RSS ${fmt(row.rssPerSocketKb)} KB/socket (heap ${fmt(row.heapPerSocketKb)} KB), disconnects ${row.disconnects}, refusals ${row.refusals}, ` +
          `load ${fmt(row.load)}, reasons ${JSON.stringify(row.reasons)}${row.hub ? `, hub ${JSON.stringify(row.hub)}` : ''}`,
      );
      rows.push(row);
      await sleep(PAUSE_MS);
    }
  }
  // --merge keeps the recorded rows this run did not redo (the 10,000 case is heavy: it can be run
  // alone and merged).
  let allRows = rows;
  if (values.merge) {
    const recorded = recordedDetails<{ rows: Measurement[] }>(RECORD_KEY);
    const redone = (row: Measurement) => rows.some((r) => r.n === row.n && r.target === row.target);
    allRows = [...(recorded?.rows ?? []).filter((row) => !redone(row)), ...rows].sort(
      (a, b) => a.n - b.n || a.target.localeCompare(b.target),
    );
  }
  const section = renderSection(allRows, {
    startedAt,
    heading: HEADING,
    database: DATABASE,
    postgres: values.postgres,
    durationMs,
    warmupMs,
  });
  console.log(`\n${section}`);
  if (!values['no-write']) {
    recordBenchmark({
      heading: HEADING,
      section,
      key: RECORD_KEY,
      figures: realtimeFigures(allRows),
      details: { rows: allRows },
    });
    console.log(`docs/benchmarks.md updated (section "${HEADING.slice(3)}").`);
  }
  process.exit(0);
}

/**
 * Per N, the server twice: a staff map on the full feed, then two maps offering a viewport (the
 * whole world zoomed out, a sixty-fourth of it zoomed in) on a server that gives them the viewport feed.
 */
async function runMapFeed(startedAt: Date): Promise<void> {
  const rows: { full: Measurement; viewport: Measurement }[] = [];
  for (const n of values.sizes ? sizes : values.quick ? [1000] : [10_000]) {
    console.log(`N=${n} map feed: full...`);
    const full = await measure('server', n, { adminViewports: [null] });
    await sleep(PAUSE_MS);
    console.log(`N=${n} map feed: viewport...`);
    const viewport = await measure('server', n, { adminViewports: mapFeedWatchers, fullFeedMaxBots: 0 });
    console.log(
      `  full ${JSON.stringify(full.adminBytesPerSecond)} B/s, viewport ${JSON.stringify(viewport.adminBytesPerSecond)} B/s`,
    );
    rows.push({ full, viewport });
    await sleep(PAUSE_MS);
  }
  const section = renderMapFeed(rows, startedAt, { durationMs, warmupMs });
  console.log(`\n${section}`);
  if (!values['no-write']) {
    recordBenchmark({
      heading: MAP_FEED_HEADING,
      section,
      key: MAP_FEED_RECORD_KEY,
      figures: mapFeedFigures(rows),
      details: { rows },
    });
  }
  process.exit(0);
}

/** The capacity of the relay and the server on this host, then the server at twice its own (overload.ts). */
async function runOverload(startedAt: Date): Promise<void> {
  // 16,000 bots and their watchers: below 90 % of the 20,000 files a process may open here, where
  // the server refuses new bots whatever its CPU (a larger host limit: raise it).
  const options: OverloadOptions = values.quick
    ? { maxBots: 100, step: 50, settleMs: 500, sampleMs: 1000, durationMs: 2000 }
    : { maxBots: 16_000, step: 1000, settleMs: 3000, sampleMs: 5000, durationMs };
  const capacities = [];
  for (const target of ['relay', 'server'] as const) {
    console.log(`capacity of the ${target}...`);
    capacities.push(await findCapacity(target, options));
    await sleep(PAUSE_MS);
  }
  const offered = 2 * (capacities[1]?.capacity ?? options.maxBots);
  console.log(`the server offered ${offered} bots...`);
  const overload = await pastCapacity(offered, options);
  console.log(`  ${JSON.stringify(overload)}`);
  const section = renderOverload(capacities, overload, startedAt, options);
  console.log(`\n${section}`);
  if (!values['no-write']) {
    recordBenchmark({
      heading: OVERLOAD_HEADING,
      section,
      key: OVERLOAD_RECORD_KEY,
      figures: overloadFigures(capacities, overload),
      details: { capacities, overload },
    });
  }
  process.exit(0);
}

/** The reconnect storm against each target in turn (storm.ts). */
async function runStorm(startedAt: Date): Promise<void> {
  const rows: StormResult[] = [];
  for (const storm of (values.storm ?? '').split(',').map(Number)) {
    for (const target of values.targets.split(',') as TargetName[]) {
      console.log(`storm ${storm} ${target}...`);
      rows.push(await reconnectStorm({ target, steady: Number(values.steady), storm }));
      console.log(`  ${JSON.stringify(rows.at(-1))}`);
    }
  }
  const section = renderStorm(rows, startedAt);
  console.log(`\n${section}`);
  if (!values['no-write']) {
    recordBenchmark({
      heading: '## Reconnect storm',
      section,
      key: 'storm',
      figures: stormFigures(rows),
      details: { rows },
    });
    console.log('docs/benchmarks.md updated (section "Reconnect storm").');
  }
  process.exit(0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
