/**
 * `npm run bench:cluster [-- --sizes 1000,5000,10000] [--duration 20] [--storm 3000] [--no-write]`
 * `--report-every 5`: bots report every 5 s instead of every second (a lighter correctness run; the
 * figures are then not the cost record).
 *
 * One node against three nodes behind nginx with Redis, in one run, on the same PostgreSQL, with the
 * same traffic: N bots at 1 update/s, an owner watcher for one bot in ten, two admin watchers (the
 * load workers of bench/realtime, in separate processes). CPU is summed over every process of the
 * topology (nodes, Redis, nginx, PostgreSQL) from /proc; then a reconnect storm: one of three nodes
 * carrying its share of `--storm` bots is killed, and we time until every bot is authenticated again.
 * Results: the "Scale-out" section of docs/benchmarks.md and the `cluster` key of docs/benchmarks.json.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type LocalCluster, startLocalCluster } from '../../deploy/local-cluster.ts';
import {
  type BenchFixture,
  preciseNow,
  type WorkerCommand,
  type WorkerMessage,
} from '../realtime/protocol.ts';
import {
  collectResults,
  compared,
  type Figure,
  freePort,
  nextMessage,
  percentile,
  recordBenchmark,
  sleep,
} from '../shared.ts';
import { seedClusterFixture } from './seed.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,5000,10000' },
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    storm: { type: 'string', default: '3000' },
    'no-write': { type: 'boolean', default: false },
    'report-every': { type: 'string', default: '1' },
  },
});
const reportEveryMs = Number(values['report-every']) * 1000;
const sizes = values.sizes.split(',').map(Number);
const durationMs = Number(values.duration) * 1000;
const warmupMs = Number(values.warmup) * 1000;
const stormBots = Number(values.storm);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
/** Linux clock ticks per second (/proc/<pid>/stat counts CPU time in ticks). */
const CLOCK_TICKS = 100;

type Topology = 'one node' | 'three nodes';

interface Measurement {
  topology: Topology;
  n: number;
  failed: number;
  expected: number;
  delivered: number;
  ownerP50: number;
  ownerP99: number;
  adminP50: number;
  adminP99: number;
  /** CPU seconds in the window by part of the topology. */
  cpuByPart: Record<string, number>;
  cpuMicrosPerDelivered: number;
  disconnects: number;
}

/** CPU seconds used so far by each process, keyed "part/pid" (nodes grouped as one part). */
function cpuSeconds(cluster: LocalCluster): Map<string, number> {
  const byProcess = new Map<string, number>();
  for (const { name, pids } of cluster.processes()) {
    const part = name.startsWith('nœud') ? 'nodes' : name;
    for (const pid of pids) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        byProcess.set(`${part}/${pid}`, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
      } catch {
        // exited
      }
    }
  }
  return byProcess;
}

/** CPU used between two readings, by part (a process born meanwhile counts from zero). */
function cpuBetween(start: Map<string, number>, end: Map<string, number>): Record<string, number> {
  const byPart: Record<string, number> = {};
  for (const [key, seconds] of end) {
    const part = key.slice(0, key.indexOf('/'));
    byPart[part] = (byPart[part] ?? 0) + seconds - (start.get(key) ?? 0);
  }
  return byPart;
}

async function startTopology(topology: Topology): Promise<{ cluster: LocalCluster; workDir: string }> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-'));
  const nodeCount = topology === 'one node' ? 1 : 3;
  const [nginx, postgres, redis, ...nodes] = await Promise.all(
    Array.from({ length: 3 + nodeCount }, () => freePort()),
  );
  const cluster = await startLocalCluster({
    workDir,
    shared: topology === 'three nodes',
    ports: { nginx: nginx!, postgres: postgres!, redis: redis!, nodes },
    env: { LOG_LEVEL: 'warn' },
    onOutput: (line) => {
      if (/error|fatal/i.test(line)) console.log(line);
    },
  });
  return { cluster, workDir };
}

function startWorkers(url: string, fixture: BenchFixture, options: { admins: number; reconnect: boolean }) {
  const botWorkerCount = fixture.bots.length <= 1000 ? 1 : 2;
  const shares: BenchFixture['bots'][] = Array.from({ length: botWorkerCount }, () => []);
  for (const [index, bot] of fixture.bots.entries()) shares[index % botWorkerCount]!.push(bot);
  const plans = [
    ...shares.map((bots) => ({ bots, adminToken: null as string | null })),
    ...Array.from({ length: options.admins }, () => ({ bots: [], adminToken: fixture.adminToken })),
  ];
  return plans.map((plan) => {
    const worker = fork(here('../realtime/load-worker.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    });
    const connected = nextMessage<Extract<WorkerMessage, { type: 'connected' }>>(
      worker,
      'connected',
      900_000,
    );
    worker.send({
      type: 'start',
      url,
      bots: plan.bots,
      adminToken: plan.adminToken,
      connectPerSecond: Math.ceil(1000 / botWorkerCount),
      reportEveryMs,
      reconnect: options.reconnect,
    } satisfies WorkerCommand);
    return { worker, connected };
  });
}

async function measure(topology: Topology, n: number): Promise<Measurement> {
  const { cluster, workDir } = await startTopology(topology);
  const workers: ReturnType<typeof startWorkers> = [];
  try {
    const fixture = await seedClusterFixture(cluster, workDir, n);
    // Bots retry a connection that failed or was closed, as agents do: with one chance each, a
    // connection timed out on a saturated machine counted as a bot lost (839 of 11,003 at 10,000).
    workers.push(...startWorkers(cluster.url, fixture, { admins: 2, reconnect: true }));
    const connected = await Promise.all(workers.map((entry) => entry.connected));
    const failed = connected.reduce((total, c) => total + c.failed, 0);
    console.log(`  ${topology} N=${n}: connected (${failed} failed)`);
    await sleep(warmupMs);
    const from = preciseNow() + 300;
    const to = from + durationMs;
    for (const { worker } of workers) worker.send({ type: 'window', from, to } satisfies WorkerCommand);
    await sleep(from - preciseNow());
    const cpuStart = cpuSeconds(cluster);
    await sleep(to - preciseNow());
    const cpuEnd = cpuSeconds(cluster);
    await sleep(3_000);
    const { sum, ownerLatencies: owner, adminLatencies: admin } = await collectResults(workers);
    // Expected: every update to each of the two admins, plus every update of a watched bot to its owner.
    const expected = 2 * sum('sent') + sum('sentWatched');
    const delivered = sum('ownerReceived') + sum('adminStates');
    const cpuByPart = cpuBetween(cpuStart, cpuEnd);
    const cpuTotal = Object.values(cpuByPart).reduce((total, seconds) => total + seconds, 0);
    return {
      topology,
      n,
      failed,
      expected,
      delivered,
      ownerP50: percentile(owner, 50),
      ownerP99: percentile(owner, 99),
      adminP50: percentile(admin, 50),
      adminP99: percentile(admin, 99),
      cpuByPart,
      cpuMicrosPerDelivered: (cpuTotal * 1e6) / Math.max(1, delivered),
      disconnects: sum('disconnects'),
    };
  } finally {
    for (const { worker } of workers) worker.send({ type: 'stop' } satisfies WorkerCommand);
    await sleep(500);
    await cluster.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** Kills one of three nodes carrying its share of `n` bots; seconds until all are authenticated again. */
async function reconnectStorm(n: number): Promise<{ n: number; moved: number; seconds: number }> {
  const { cluster, workDir } = await startTopology('three nodes');
  const workers: ReturnType<typeof startWorkers> = [];
  try {
    const fixture = await seedClusterFixture(cluster, workDir, n);
    workers.push(...startWorkers(cluster.url, fixture, { admins: 0, reconnect: true }));
    await Promise.all(workers.map((entry) => entry.connected));
    const authenticated = async () => {
      const answers = await Promise.all(
        workers.map(({ worker }) => {
          const answer = nextMessage<Extract<WorkerMessage, { type: 'status' }>>(worker, 'status', 10_000);
          worker.send({ type: 'status' } satisfies WorkerCommand);
          return answer;
        }),
      );
      return answers.reduce((total, answer) => total + answer.authenticated, 0);
    };
    const before = await authenticated();
    const killedAt = Date.now();
    await cluster.nodes[1]!.kill();
    let lowest = before;
    for (;;) {
      const now = await authenticated();
      lowest = Math.min(lowest, now);
      if (now >= before && lowest < before) break;
      if (Date.now() - killedAt > 120_000) throw new Error(`storm: only ${now}/${before} back after 120 s`);
      await sleep(100);
    }
    return { n, moved: before - lowest, seconds: (Date.now() - killedAt) / 1000 };
  } finally {
    for (const { worker } of workers) worker.send({ type: 'stop' } satisfies WorkerCommand);
    await sleep(500);
    await cluster.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

function render(
  rows: Measurement[],
  storm: Awaited<ReturnType<typeof reconnectStorm>> | undefined,
  at: Date,
): string {
  const lines = [
    '## Scale-out',
    '',
    `Measured by \`npm run bench:cluster\` (\`bench/cluster/\`) on ${at.toISOString().slice(0, 16)}Z, ${os.cpus().length} cores, ` +
      `Node ${process.version}. Same PostgreSQL server for both topologies; **one node** (no Redis, no nginx) against ` +
      '**three nodes** behind nginx with Redis (`npm run cluster`’s topology, `deploy/local-cluster.ts`). N bots at 1 update/s, ' +
      `an owner watcher for one bot in ten, two admin watchers; ${durationMs / 1000} s measured after ${warmupMs / 1000} s of warm-up. ` +
      'CPU is summed over every process of the topology (nodes, Redis, nginx, PostgreSQL) from /proc; the load workers ' +
      'run on the same 2 cores, so three nodes cannot be faster here: what matters is the cost per message.',
    '',
    '| N | topology | delivered / expected | owner p50 / p99 | admin p50 / p99 | CPU per delivered state | CPU: nodes / Redis / nginx / PostgreSQL (s) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const cpu = (part: string) => fmt(row.cpuByPart[part] ?? 0, 2);
    lines.push(
      `| ${row.n} | ${row.topology} | ${row.delivered} / ${row.expected} (${fmt((100 * row.delivered) / Math.max(1, row.expected), 2)} %)` +
        `${row.failed ? `, ${row.failed} sockets failed` : ''} | ${fmt(row.ownerP50)} / ${fmt(row.ownerP99)} ms | ` +
        `${fmt(row.adminP50)} / ${fmt(row.adminP99)} ms | ${fmt(row.cpuMicrosPerDelivered, 1)} µs | ` +
        `${cpu('nodes')} / ${cpu('redis')} / ${cpu('nginx')} / ${cpu('postgres')} |`,
    );
  }
  lines.push('', 'Cost of going multi-node (goal: CPU per delivered state ≤ 1.5× one node):', '');
  lines.push(
    '| N | CPU per delivered state, three nodes / one node | Redis share of the three nodes’ CPU | verdict |',
  );
  lines.push('|---|---|---|---|');
  for (const n of [...new Set(rows.map((row) => row.n))]) {
    const one = rows.find((row) => row.n === n && row.topology === 'one node');
    const three = rows.find((row) => row.n === n && row.topology === 'three nodes');
    if (!one || !three) continue;
    const ratio = three.cpuMicrosPerDelivered / one.cpuMicrosPerDelivered;
    const total = Object.values(three.cpuByPart).reduce((sum, seconds) => sum + seconds, 0);
    const misses = [
      ...(ratio > 1.5 ? ['CPU ratio'] : []),
      ...(three.delivered < three.expected * 0.9999 ? ['delivery'] : []),
    ];
    lines.push(
      `| ${n} | ${fmt(ratio, 2)} | ${fmt((100 * (three.cpuByPart.redis ?? 0)) / Math.max(1e-9, total), 1)} % | ${misses.length ? `misses: ${misses.join(', ')}` : 'meets the goal'} |`,
    );
  }
  if (storm) {
    lines.push(
      '',
      `Reconnect storm: one of three nodes killed (SIGKILL) while carrying ${storm.moved} of ${storm.n} bots; every bot ` +
        `authenticated again after **${fmt(storm.seconds)} s** (goal ≤ 30 s: ${storm.seconds <= 30 ? 'met' : 'missed'}).`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** Per N, three nodes against one: CPU per delivered state, delivery; then the node-loss storm. */
function clusterFigures(
  rows: Measurement[],
  storm: Awaited<ReturnType<typeof reconnectStorm>> | undefined,
): Figure[] {
  const figures = [...new Set(rows.map((row) => row.n))].flatMap((n) => {
    const one = rows.find((row) => row.n === n && row.topology === 'one node');
    const three = rows.find((row) => row.n === n && row.topology === 'three nodes');
    if (!one || !three) return [];
    const cpu = compared({
      name: `${n} bots: CPU per delivered state, three nodes`,
      value: three.cpuMicrosPerDelivered,
      unit: 'µs',
      baseline: one.cpuMicrosPerDelivered,
      goal: 'ratio ≤ 1.5',
    });
    return [
      { ...cpu, met: (cpu.ratio ?? Infinity) <= 1.5 },
      {
        name: `${n} bots: delivered, three nodes`,
        value: (100 * three.delivered) / Math.max(1, three.expected),
        unit: '%',
        goal: '100 %',
        met: three.delivered === three.expected,
      },
    ];
  });
  if (storm)
    figures.push({
      name: `node loss: ${storm.moved} bots back after`,
      value: storm.seconds,
      unit: 's',
      goal: '≤ 30 s',
      met: storm.seconds <= 30,
    });
  return figures;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const rows: Measurement[] = [];
  for (const n of sizes) {
    for (const topology of ['one node', 'three nodes'] as const) {
      console.log(`N=${n}, ${topology}…`);
      const row = await measure(topology, n);
      console.log(`  ${JSON.stringify(row)}`);
      rows.push(row);
    }
  }
  const storm = stormBots > 0 ? await reconnectStorm(stormBots) : undefined;
  if (storm) console.log(`storm: ${JSON.stringify(storm)}`);
  const section = render(rows, storm, startedAt);
  console.log(`\n${section}`);
  if (!values['no-write']) {
    recordBenchmark({
      heading: '## Scale-out',
      section,
      key: 'cluster',
      figures: clusterFigures(rows, storm),
      details: { rows, storm },
    });
    console.log('docs/benchmarks.md (section "Scale-out") and docs/benchmarks.json (cluster) updated.');
  }
  process.exit(0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
