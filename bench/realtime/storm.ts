/**
 * The reconnect storm of one node (`npm run bench:realtime -- --storm 10000`): a freshly started
 * server (cold process, cold caches) already carries `steady` bots with their owner watchers and an
 * admin; then `storm` bots (one in ten with its owner watcher) arrive within 5 s and authenticate,
 * retrying like the SDK, as after a restart. Measured: seconds until every storm bot is authenticated, and the latency the
 * steady watchers see meanwhile.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { SOCKET_RECONNECTION_DELAY_MAX_MS } from '@bot/contracts';
import {
  collectResults,
  compared,
  exited,
  type Figure,
  freePort,
  nextMessage,
  percentile,
  sleep,
} from '../shared.ts';
import { preciseNow, type WorkerCommand, type WorkerMessage } from './protocol.ts';
import { forkLoadWorker, startLoad, startTarget, type TargetName } from './targets.ts';

export interface StormResult {
  target: TargetName;
  steady: number;
  storm: number;
  /** Storm bots authenticated, and those that could not connect or authenticate. */
  authenticated: number;
  failed: number;
  /** From the first storm connection to the last storm bot authenticated. */
  seconds: number;
  /** Owner latency of the steady bots' watchers during the storm. */
  ownerP50: number;
  ownerP99: number;
  ownerDelivered: number;
  ownerExpected: number;
  adminP99: number;
  disconnects: number;
  /** Why storm sockets failed or closed (Socket.IO reasons, refusal codes). */
  reasons: Record<string, number>;
}

const STORM_WORKERS = 2;
/**
 * After a restart the SDK's bots come back within one reconnection delay: at most
 * `SOCKET_RECONNECTION_DELAY_MAX_MS` × (1 + randomisation) = 7.5 s after the server listens again.
 * The storm spreads its arrivals over 5 s (harsher than that).
 */
const ARRIVAL_SPREAD_MS = SOCKET_RECONNECTION_DELAY_MAX_MS;
const WARMUP_MS = 3000;
const GRACE_MS = 3000;

/** A worker answering a status request has loaded and listens: the storm timing excludes its start-up. */
async function whenListening(worker: ChildProcess): Promise<void> {
  const answer = nextMessage<Extract<WorkerMessage, { type: 'status' }>>(worker, 'status', 60_000);
  worker.send({ type: 'status' } satisfies WorkerCommand);
  await answer;
}

function mergeCounts(counts: Record<string, number>[]): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const count of counts)
    for (const [key, value] of Object.entries(count)) merged[key] = (merged[key] ?? 0) + value;
  return merged;
}

export async function reconnectStorm(input: {
  target: TargetName;
  steady: number;
  storm: number;
}): Promise<StormResult> {
  const { target, url, fixture } = await startTarget(
    input.target,
    input.steady + input.storm,
    await freePort(),
  );
  const steadyWorker = forkLoadWorker();
  const stormWorkers = Array.from({ length: STORM_WORKERS }, forkLoadWorker);
  const children = [target, steadyWorker, ...stormWorkers];
  try {
    await startLoad(steadyWorker, {
      url,
      bots: fixture.bots.slice(0, input.steady),
      adminToken: fixture.adminToken,
      connectPerSecond: 1000,
    });
    await Promise.all(stormWorkers.map(whenListening));
    await sleep(WARMUP_MS);

    const shares = Array.from({ length: STORM_WORKERS }, (_, worker) =>
      fixture.bots.slice(input.steady).filter((_, index) => index % STORM_WORKERS === worker),
    );
    const from = preciseNow();
    steadyWorker.send({ type: 'window', from, to: from + 3_600_000 } satisfies WorkerCommand);
    const connected = await Promise.all(
      stormWorkers.map((worker, index) =>
        startLoad(worker, {
          url,
          bots: shares[index]!,
          adminToken: null,
          connectPerSecond: 0,
          reconnect: true,
          arrivalSpreadMs: ARRIVAL_SPREAD_MS,
        }),
      ),
    );
    const seconds = (preciseNow() - from) / 1000;
    steadyWorker.send({ type: 'window', from, to: preciseNow() } satisfies WorkerCommand);
    await sleep(GRACE_MS);
    const steady = await collectResults([{ worker: steadyWorker }]);
    const storm = await collectResults(stormWorkers.map((worker) => ({ worker })));
    return {
      ...input,
      authenticated: connected.reduce((total, share) => total + share.bots, 0),
      failed: connected.reduce((total, share) => total + share.failed, 0),
      seconds,
      ownerP50: percentile(steady.ownerLatencies, 50),
      ownerP99: percentile(steady.ownerLatencies, 99),
      ownerDelivered: steady.sum('ownerReceived'),
      ownerExpected: steady.sum('sentWatched'),
      adminP99: percentile(steady.adminLatencies, 99),
      disconnects: steady.sum('disconnects'),
      reasons: mergeCounts(storm.results.map((result) => result.reasons)),
    };
  } finally {
    for (const worker of children.slice(1)) worker.send({ type: 'stop' } satisfies WorkerCommand);
    target.send({ type: 'stop' });
    // The target closes the app and exits (writing its CPU profile when asked for one).
    await exited([target], 30_000);
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}

const STORM_GOAL_SECONDS = 15;
const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** The "Reconnect storm" section of docs/benchmarks.md. */
export function renderStorm(rows: StormResult[], startedAt: Date): string {
  const [first] = rows;
  const lines = [
    '## Reconnect storm',
    '',
    `Measured by \`npm run bench:realtime -- --storm ${[...new Set(rows.map((row) => row.storm))].join(',')} --steady ${first?.steady}\` ` +
      `(\`bench/realtime/storm.ts\`) on ${startedAt.toISOString().slice(0, 16)}Z, ${os.cpus().length} cores, ` +
      `Node ${process.version}, one node on the embedded database. A freshly started target (cold caches) ` +
      `carries ${first?.steady} bots (1 update/s, an owner watcher for one in ten, an admin watcher); then ` +
      'the storm bots (one in ten with its owner watcher) arrive within 5 s, as after a restart ' +
      '(the SDK reconnects within 7.5 s), and retry with its settings, from two load processes sharing the 2 cores with the target. The relay (bare ' +
      'Socket.IO, no checks) is the baseline: what connecting that many sockets costs on this machine.',
    '',
    '| target | storm bots | authenticated | failed | all online after | ratio to the relay | steady owner p50 / p99 meanwhile | owner states delivered | verdict |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const relay = rows.find((other) => other.target === 'relay' && other.storm === row.storm);
    const misses: string[] = [];
    if (!(row.seconds <= STORM_GOAL_SECONDS) || row.failed > 0) misses.push('time');
    if (!(row.ownerP99 <= 100)) misses.push('p99');
    const verdict =
      row.target === 'relay' ? 'baseline' : misses.length ? `misses: ${misses.join(', ')}` : 'meets the goal';
    lines.push(
      `| ${row.target} | ${row.storm} | ${row.authenticated} | ${row.failed} | **${fmt(row.seconds)} s** | ` +
        `${relay ? fmt(row.seconds / relay.seconds, 2) : 'n/a'} | ${fmt(row.ownerP50)} / ${fmt(row.ownerP99)} ms | ` +
        `${row.ownerDelivered} / ${row.ownerExpected} | ${verdict} |`,
    );
  }
  lines.push(
    '',
    `Goal: every bot online within ${STORM_GOAL_SECONDS} s, the steady owners' p99 ≤ 100 ms meanwhile.`,
    '',
  );
  return lines.join('\n');
}

/** Per storm size, the server against the relay: seconds until all are online, steady owner p99. */
export function stormFigures(rows: StormResult[]): Figure[] {
  return rows
    .filter((row) => row.target === 'server')
    .flatMap((server) => {
      const relay = rows.find((row) => row.target === 'relay' && row.storm === server.storm);
      const online = {
        name: `${server.storm} bots: all online after`,
        value: server.seconds,
        unit: 's',
        goal: `≤ ${STORM_GOAL_SECONDS} s`,
        met: server.failed === 0 && server.seconds <= STORM_GOAL_SECONDS,
      };
      const p99 = {
        name: `${server.storm} bots: steady owner p99 meanwhile`,
        value: server.ownerP99,
        unit: 'ms',
        goal: '≤ 100 ms',
        met: server.ownerP99 <= 100,
      };
      return relay
        ? [
            { ...online, ...compared({ ...online, baseline: relay.seconds }) },
            { ...p99, ...compared({ ...p99, baseline: relay.ownerP99 }) },
          ]
        : [online, p99];
    });
}
