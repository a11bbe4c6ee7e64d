/**
 * Where a node's edge is, and what happens past it (`npm run bench:realtime -- --overload`).
 *
 * 1. Capacity, the relay then the server on the same host: bots (1 update/s, an owner watcher for one
 *    in ten, one admin watcher) join in steps; after each step the target's event-loop utilisation
 *    is read over a few seconds. The capacity is the last step below 90 % (the server's own
 *    threshold, decision 911), so records from different hosts compare through the relay's.
 * 2. Twice the capacity: the server is offered twice its capacity, every bot retrying like the SDK
 *    until it is taken. The node takes what it can carry and refuses the rest; measured: bots taken,
 *    the owners' p99 of those taken, sockets dropped after being taken.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
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
import { type BenchBot, preciseNow, type WorkerCommand, type WorkerMessage } from './protocol.ts';
import { forkLoadWorker, startLoad, startTarget, statsOf, type TargetName } from './targets.ts';

/** The server's overload threshold (config.load.enterUtilization). */
const THRESHOLD = 0.9;
const BOT_WORKERS = 2;

interface CapacityStep {
  bots: number;
  /** Bots of the step the target refused (a server overloaded for a moment by the step's arrivals). */
  refused: number;
  utilization: number;
  cpuShare: number;
}

export interface CapacityResult {
  target: TargetName;
  /** Bots carried below the threshold; `reached` false when the largest step stayed below it. */
  capacity: number;
  reached: boolean;
  steps: CapacityStep[];
}

export interface OverloadResult {
  offered: number;
  taken: number;
  /** Seconds from the first connection until the number taken stopped growing. */
  settledSeconds: number;
  ownerP50: number;
  ownerP99: number;
  ownerDelivered: number;
  ownerExpected: number;
  adminP99: number;
  dropped: number;
  refusals: number;
  /** Share of the samples taken during the run in which the server called itself overloaded. */
  overloadedShare: number;
  reasons: Record<string, number>;
}

export interface OverloadOptions {
  maxBots: number;
  step: number;
  settleMs: number;
  sampleMs: number;
  durationMs: number;
}

/** A running target with its load workers (two for bots, one for the admin watcher). */
async function withLoad<T>(
  targetName: TargetName,
  bots: number,
  body: (run: {
    target: ChildProcess;
    url: string;
    fixture: { bots: BenchBot[]; adminToken: string };
    botWorkers: ChildProcess[];
    adminWorker: ChildProcess;
  }) => Promise<T>,
): Promise<T> {
  const { target, url, fixture } = await startTarget(targetName, bots, await freePort());
  const botWorkers = Array.from({ length: BOT_WORKERS }, forkLoadWorker);
  const adminWorker = forkLoadWorker();
  const children = [target, ...botWorkers, adminWorker];
  try {
    await startLoad(adminWorker, { url, bots: [], adminToken: fixture.adminToken, connectPerSecond: 1 });
    return await body({ target, url, fixture, botWorkers, adminWorker });
  } finally {
    for (const worker of children.slice(1)) worker.send({ type: 'stop' } satisfies WorkerCommand);
    target.send({ type: 'stop' });
    await exited([target], 30_000);
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** The target's event-loop utilisation and CPU share over `ms`. */
async function utilizationOver(target: ChildProcess, ms: number) {
  const before = await statsOf(target, false);
  await sleep(ms);
  const after = await statsOf(target, false);
  const active = after.eventLoop.active - before.eventLoop.active;
  const idle = after.eventLoop.idle - before.eventLoop.idle;
  return {
    utilization: active / Math.max(1, active + idle),
    cpuShare: (after.cpuMicros - before.cpuMicros) / 1000 / ms,
  };
}

const shareOf = <T>(items: T[], worker: number) => items.filter((_, index) => index % BOT_WORKERS === worker);

/** Adds bots step by step until the target's loop is busy 90 % of the time (or every bot is on). */
export async function findCapacity(
  targetName: TargetName,
  options: OverloadOptions,
): Promise<CapacityResult> {
  return withLoad(targetName, options.maxBots, async ({ target, url, fixture, botWorkers }) => {
    const steps: CapacityStep[] = [];
    for (let from = 0; from < options.maxBots; from += options.step) {
      const slice = fixture.bots.slice(from, from + options.step);
      const joined = await Promise.all(
        botWorkers.map((worker, index) =>
          startLoad(worker, {
            url,
            bots: shareOf(slice, index),
            adminToken: null,
            connectPerSecond: 500,
          }),
        ),
      );
      const refused = joined.reduce((total, share) => total + share.failed, 0);
      await sleep(options.settleMs);
      const reading = await utilizationOver(target, options.sampleMs);
      steps.push({ bots: (steps.at(-1)?.bots ?? 0) + slice.length - refused, refused, ...reading });
      console.log(
        `  ${targetName}: ${steps.at(-1)?.bots} bots, loop ${(reading.utilization * 100).toFixed(0)} %`,
      );
      // Refusals while the step's bots arrive are the arrivals' burst, not the steady load: go on.
      if (reading.utilization >= THRESHOLD) {
        return { target: targetName, capacity: steps.at(-2)?.bots ?? 0, reached: true, steps };
      }
    }
    return { target: targetName, capacity: steps.at(-1)?.bots ?? 0, reached: false, steps };
  });
}

async function takenCount(workers: ChildProcess[]): Promise<number> {
  const answers = await Promise.all(
    workers.map((worker) => {
      const answer = nextMessage<Extract<WorkerMessage, { type: 'status' }>>(worker, 'status', 60_000);
      worker.send({ type: 'status' } satisfies WorkerCommand);
      return answer;
    }),
  );
  return answers.reduce((total, answer) => total + answer.authenticated, 0);
}

/** The server offered `offered` bots at once, each retrying like the SDK until it is taken. */
export async function pastCapacity(offered: number, options: OverloadOptions): Promise<OverloadResult> {
  return withLoad('server', offered, async ({ target, url, fixture, botWorkers, adminWorker }) => {
    const started = preciseNow();
    await Promise.all(
      botWorkers.map((worker, index) =>
        startLoad(worker, {
          url,
          bots: shareOf(fixture.bots, index),
          adminToken: null,
          connectPerSecond: Math.ceil(1000 / BOT_WORKERS),
          reconnect: true,
          keepTrying: true,
        }),
      ),
    );
    // Settled once the number taken has not grown for three readings in a row.
    let taken = 0;
    let still = 0;
    const overloadedSamples: boolean[] = [];
    while (still < 3 && preciseNow() - started < 240_000) {
      await sleep(options.settleMs);
      const now = await takenCount(botWorkers);
      overloadedSamples.push((await statsOf(target, false)).overloaded === true);
      still = now > taken ? 0 : still + 1;
      taken = Math.max(taken, now);
    }
    const settledSeconds = (preciseNow() - started) / 1000;
    const workers = [...botWorkers, adminWorker].map((worker) => ({ worker }));
    const from = preciseNow() + 300;
    const to = from + options.durationMs;
    for (const { worker } of workers) worker.send({ type: 'window', from, to } satisfies WorkerCommand);
    while (preciseNow() < to) {
      await sleep(Math.min(1000, to - preciseNow()));
      overloadedSamples.push((await statsOf(target, false)).overloaded === true);
    }
    await sleep(3000);
    const { results, sum, ownerLatencies, adminLatencies } = await collectResults(workers);
    return {
      offered,
      taken: await takenCount(botWorkers),
      settledSeconds,
      ownerP50: percentile(ownerLatencies, 50),
      ownerP99: percentile(ownerLatencies, 99),
      ownerDelivered: sum('ownerReceived'),
      ownerExpected: sum('sentWatched'),
      adminP99: percentile(adminLatencies, 99),
      dropped: sum('dropped'),
      refusals: sum('refusals'),
      overloadedShare: overloadedSamples.filter(Boolean).length / Math.max(1, overloadedSamples.length),
      reasons: results.reduce<Record<string, number>>((all, result) => {
        for (const [reason, count] of Object.entries(result.reasons))
          all[reason] = (all[reason] ?? 0) + count;
        return all;
      }, {}),
    };
  });
}

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const OWNER_P99_GOAL_MS = 1000;

export const OVERLOAD_HEADING = '## Capacity and overload';
export const OVERLOAD_RECORD_KEY = 'overload';

/** The "Capacity and overload" section of docs/benchmarks.md. */
export function renderOverload(
  capacities: CapacityResult[],
  overload: OverloadResult,
  startedAt: Date,
  options: OverloadOptions,
): string {
  const lines = [
    OVERLOAD_HEADING,
    '',
    `Measured by \`npm run bench:realtime -- --overload\` (\`bench/realtime/overload.ts\`) on ` +
      `${startedAt.toISOString().slice(0, 16)}Z, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ` +
      'the server on the embedded database. Load processes (socket.io-client) share the cores with the target.',
    '',
    `**Capacity**: bots (1 update/s, an owner watcher for one in ten, an admin watcher) join ${options.step} at a time; ` +
      `${options.settleMs / 1000} s after each step the target's event-loop utilisation is read over ${options.sampleMs / 1000} s. ` +
      `The capacity is the last step below ${THRESHOLD * 100} % (the server's own overload threshold). The relay is the baseline on the same host.`,
    '',
    '| target | capacity (bots) | steps: bots → loop busy, CPU |',
    '|---|---|---|',
  ];
  for (const result of capacities) {
    const steps = result.steps
      .map(
        (step) =>
          `${step.bots} → ${fmt(step.utilization * 100, 0)} %, ${fmt(step.cpuShare * 100, 0)} %${step.refused ? ` (${step.refused} refused)` : ''}`,
      )
      .join('; ');
    lines.push(`| ${result.target} | **${result.reached ? '' : '≥ '}${result.capacity}** | ${steps} |`);
  }
  lines.push(
    '',
    `**Twice the capacity**: the server is offered ${overload.offered} bots at once, each retrying like the SDK ` +
      `(1 s doubling to 5 s, ±50 %) until taken; once the number taken stops growing, ${options.durationMs / 1000} s are measured. ` +
      `Goals: owner p99 ≤ ${OWNER_P99_GOAL_MS} ms for the bots taken, no socket dropped once taken.`,
    '',
    '| offered | taken | settled after | overloaded (share of readings) | refusals | owner p50 / p99 | owner states | admin p99 | dropped |',
    '|---|---|---|---|---|---|---|---|---|',
    `| ${overload.offered} | ${overload.taken} | ${fmt(overload.settledSeconds)} s | ${fmt(overload.overloadedShare * 100, 0)} % | ` +
      `${overload.refusals} | ${fmt(overload.ownerP50)} / **${fmt(overload.ownerP99)} ms** | ${overload.ownerDelivered} / ${overload.ownerExpected} | ` +
      `${fmt(overload.adminP99)} ms | **${overload.dropped}** |`,
    '',
    `Refusals and closes by reason: \`${JSON.stringify(overload.reasons)}\`.`,
    '',
  );
  return lines.join('\n');
}

export function overloadFigures(capacities: CapacityResult[], overload: OverloadResult): Figure[] {
  const server = capacities.find((result) => result.target === 'server');
  const relay = capacities.find((result) => result.target === 'relay');
  const figures: Figure[] = [];
  if (server && relay) {
    figures.push(
      compared({
        name: `capacity on this host (bots at 1 update/s below ${THRESHOLD * 100} % busy)${server.reached ? '' : ', not reached'}`,
        value: server.capacity,
        unit: 'bots',
        baseline: relay.capacity,
      }),
    );
  }
  figures.push(
    {
      name: `twice the capacity (${overload.offered} offered): owner p99 of the bots taken`,
      value: overload.ownerP99,
      unit: 'ms',
      goal: `≤ ${OWNER_P99_GOAL_MS} ms`,
      met: overload.ownerP99 <= OWNER_P99_GOAL_MS,
    },
    {
      name: `twice the capacity (${overload.offered} offered): sockets dropped once taken`,
      value: overload.dropped,
      unit: 'sockets',
      goal: '0',
      met: overload.dropped === 0,
    },
    {
      name: `twice the capacity (${overload.offered} offered): bots taken`,
      value: overload.taken,
      unit: 'bots',
    },
  );
  return figures;
}
