/**
 * HTTP benchmark (issue 14, part 4): requests per second and latency of the product's hot reads
 * against a bare Fastify answering the same JSON, in the same run, each target in its own process
 * (autocannon, the load, runs in this one: one core each on a 2-core machine).
 *  - baseline: `GET /api/me/info` on a Fastify hello world returning the product's own answer;
 *  - `GET /api/me/info` signed in (session, user and roles);
 *  - `GET /api/settings/public` (no session, settings from the cache).
 * Goal: signed-in `/api/me/info` at ≥ 60 % of the baseline's requests per second. The three are
 * measured in turn, `--runs` times (the load shares the machine: one run varies by ±20 %), and each
 * figure is the median of its runs.
 *
 * Run: npm run bench:http [-- --seconds 10 --connections 20] [--postgres]
 * `--postgres` runs the product on a PostgreSQL server of its own (bench/postgres.ts) instead of the
 * embedded database. Results: the "HTTP" (or "HTTP on PostgreSQL") section of docs/benchmarks.md and
 * the `http` (or `httpPostgres`) key of docs/benchmarks.json.
 */
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { type BenchPostgres, startBenchPostgres } from '../postgres.ts';
import { compared, compiledTarget, exited, nextMessage, recordBenchmark } from '../shared.ts';
import type { TargetCommand, TargetCpu, TargetReady } from './target.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    runs: { type: 'string', default: '3' },
    postgres: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const RUNS = Number(values.runs);
const GOAL = 0.6;
/** Issue 36: the product's own CPU per signed-in answer, against the hello world's. */
const CPU_GOAL = 1.3;

/** Forks a target (kept in `children` at once, so that a failed start is stopped too). */
async function startTarget(
  command: TargetCommand,
  children: ChildProcess[],
  databaseUrl?: string,
): Promise<{ child: ChildProcess; ready: TargetReady }> {
  // The embedded database unless `--postgres` gave one: never a DATABASE_URL left in the shell.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = fork(await compiledTarget(fileURLToPath(new URL('./target.ts', import.meta.url))), {
    env: databaseUrl ? { ...env, DATABASE_URL: databaseUrl } : env,
    // BENCH_PROFILE_DIR=… writes each target's CPU profile there when it exits.
    execArgv: process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  const ready = nextMessage<TargetReady>(child, 'ready', 120_000);
  child.send(command);
  return { child, ready: await ready };
}

/** Stops the targets (SIGKILL after 30 s), then PostgreSQL: their connections close first. */
async function stopAll(children: ChildProcess[], postgres: BenchPostgres | undefined): Promise<void> {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  const stopped = exited(running, 30_000);
  for (const child of running) child.kill();
  await stopped;
  for (const child of running)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  postgres?.stop();
}

interface Target {
  child: ChildProcess;
  url: string;
  token?: string;
}

interface Measured {
  name: string;
  requestsPerSecond: number;
  /** The target's own CPU time (user and system) per request answered. */
  cpuMicrosPerRequest: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function cpuMicrosOf(target: ChildProcess): Promise<number> {
  const answer = nextMessage<TargetCpu>(target, 'cpu', 10_000);
  target.send({ type: 'cpu' } satisfies TargetCommand);
  return (await answer).micros;
}

async function load(name: string, target: Target): Promise<Measured> {
  const options = {
    url: target.url,
    connections: CONNECTIONS,
    headers: target.token ? { authorization: `Bearer ${target.token}` } : {},
  };
  await autocannon({ ...options, duration: Math.min(2, SECONDS) }); // warm-up: JIT, caches, connections
  const cpuBefore = await cpuMicrosOf(target.child);
  const result = await autocannon({ ...options, duration: SECONDS });
  const cpuMicros = (await cpuMicrosOf(target.child)) - cpuBefore;
  return {
    name,
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: cpuMicros / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Every target measured `RUNS` times, in turn. */
async function measureAll(): Promise<Measured[][]> {
  const postgres = values.postgres ? await startBenchPostgres() : undefined;
  const children: ChildProcess[] = [];
  try {
    const product = await startTarget({ type: 'start', kind: 'product' }, children, postgres?.url);
    const answer = await fetch(`${product.ready.url}/api/me/info`, {
      headers: { authorization: `Bearer ${product.ready.token}` },
    });
    if (!answer.ok) throw new Error(`/api/me/info answered ${answer.status}`);
    const hello = await startTarget({ type: 'start', kind: 'hello', body: await answer.json() }, children);
    const targets: [name: string, target: Target][] = [
      [
        'baseline: Fastify hello world, same JSON',
        { child: hello.child, url: `${hello.ready.url}/api/me/info` },
      ],
      [
        'GET /api/me/info (signed in)',
        { child: product.child, url: `${product.ready.url}/api/me/info`, token: product.ready.token },
      ],
      ['GET /api/settings/public', { child: product.child, url: `${product.ready.url}/api/settings/public` }],
    ];
    const runs: Measured[][] = targets.map(() => []);
    for (let run = 0; run < RUNS; run++)
      for (const [index, [name, target]] of targets.entries()) runs[index]!.push(await load(name, target));
    return runs;
  } finally {
    await stopAll(children, postgres);
  }
}

const runs = await measureAll();
const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
const rows: Measured[] = runs.map((measured) => ({
  name: measured[0]!.name,
  requestsPerSecond: median(measured.map((row) => row.requestsPerSecond)),
  cpuMicrosPerRequest: median(measured.map((row) => row.cpuMicrosPerRequest)),
  p50: median(measured.map((row) => row.p50)),
  p99: median(measured.map((row) => row.p99)),
  errors: measured.reduce((sum, row) => sum + row.errors, 0),
  non2xx: measured.reduce((sum, row) => sum + row.non2xx, 0),
}));
const baseline = rows[0]!.requestsPerSecond;
const baselineCpu = rows[0]!.cpuMicrosPerRequest;
const engine = values.postgres ? 'PostgreSQL' : 'PGlite';
const measuredAt = new Date().toISOString();
const table = rows
  .map((row) => {
    const ratio = row.requestsPerSecond / baseline;
    const cpuRatio = row.cpuMicrosPerRequest / baselineCpu;
    const verdict =
      row === rows[0]
        ? 'baseline'
        : row === rows[1]
          ? `requests/s ${ratio >= GOAL ? 'met' : 'missed'}, CPU ${cpuRatio <= CPU_GOAL ? 'met' : 'missed'}`
          : '';
    const cpu = `${row.cpuMicrosPerRequest.toFixed(1)} µs (${cpuRatio.toFixed(2)}×)`;
    return `| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${(ratio * 100).toFixed(1)} % | ${cpu} | ${row.p50} ms | ${row.p99} ms | ${row.errors + row.non2xx} | ${verdict} |`;
  })
  .join('\n');
const heading = engine === 'PGlite' ? '## HTTP' : '## HTTP on PostgreSQL';
const section = `${heading}

Measured by \`npm run bench:http${values.postgres ? ' -- --postgres' : ''}\` (\`bench/http/\`) on ${measuredAt.slice(0, 16)}Z, ${os.cpus().length} cores, Node ${process.version}, ${engine}: autocannon, ${CONNECTIONS} connections, ${SECONDS} s after ${Math.min(2, SECONDS)} s of warm-up, medians of ${RUNS} runs taken in turn, each target in its own process (production logging at \`LOG_LEVEL=info\`). Goals: signed-in \`GET /api/me/info\` at ≥ ${GOAL * 100} % of the baseline's requests per second, and at ≤ ${CPU_GOAL}× its CPU per request. Target CPU per request: the target process's user and system time over the measured seconds (\`process.cpuUsage()\`, the kernel's work on its sockets included) divided by the requests it answered, and its ratio to the baseline's (the embedded database works inside the product's process; PostgreSQL's own CPU is not counted).

| target | requests/s | of the baseline | target CPU per request | p50 | p99 | errors | verdict |
|---|---|---|---|---|---|---|---|
${table}
`;
console.log(section);
if (!values['no-write']) {
  recordBenchmark({
    heading,
    section,
    key: engine === 'PGlite' ? 'http' : 'httpPostgres',
    figures: rows.slice(1).flatMap((row) => {
      const figure = compared({
        name: `${row.name}: requests/s`,
        value: row.requestsPerSecond,
        unit: 'req/s',
        baseline,
      });
      const cpu = compared({
        name: `${row.name}: target CPU per request`,
        value: row.cpuMicrosPerRequest,
        unit: 'µs',
        baseline: baselineCpu,
      });
      return row === rows[1]
        ? [
            { ...figure, goal: `ratio ≥ ${GOAL}`, met: (figure.ratio ?? 0) >= GOAL },
            { ...cpu, goal: `ratio ≤ ${CPU_GOAL}`, met: (cpu.ratio ?? Infinity) <= CPU_GOAL },
          ]
        : [figure, cpu];
    }),
    details: {
      engine,
      connections: CONNECTIONS,
      seconds: SECONDS,
      runs: RUNS,
      goal: { of: 'GET /api/me/info', ratioAtLeast: GOAL },
      rows: rows.map((row) => ({ ...row, ratio: row.requestsPerSecond / baseline })),
      allRuns: runs,
    },
  });
}
