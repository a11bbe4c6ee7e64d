/** Starting a benchmark target (the real server or the bare relay) in its own process. */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledTarget, nextMessage } from '../shared.ts';
import type { BenchFixture, TargetMessage, WorkerCommand, WorkerMessage } from './protocol.ts';

export type TargetName = 'relay' | 'server';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const EXEC_ARGV = ['--expose-gc'];

export interface RunningTarget {
  target: ChildProcess;
  url: string;
  fixture: BenchFixture;
}

/**
 * Forks a target for `n` bots and waits until it listens. The server is seeded by a first process,
 * so the measured one only opens the database (its heap and caches start cold, as after a restart).
 */
export async function startTarget(
  targetName: TargetName,
  n: number,
  port: number,
  databaseUrl?: string,
  extraEnv: Record<string, string> = {},
): Promise<RunningTarget> {
  const targetFile = await compiledTarget(here(`./${targetName}-target.ts`));
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const targetArgs = [String(n), String(port)];
  const env = { ...process.env, ...extraEnv, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  if (targetName === 'server') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-realtime-'));
    targetArgs.push(dataDir);
    const seeder = fork(targetFile, [...targetArgs, 'seed'], { execArgv: [], env, stdio: 'inherit' });
    const code = await new Promise<number | null>((resolve) => seeder.once('exit', resolve));
    if (code !== 0) throw new Error(`seeding failed (${code})`);
  }
  const target = fork(targetFile, targetArgs, {
    execArgv: [...EXEC_ARGV, ...profile],
    env,
    stdio: 'inherit',
  });
  const ready = await nextMessage<Extract<TargetMessage, { type: 'ready' }>>(target, 'ready', 600_000);
  const fixture = JSON.parse(readFileSync(ready.fixtureFile, 'utf8')) as BenchFixture;
  return { target, url: `http://127.0.0.1:${port}`, fixture };
}

/** The target's CPU time and memory, read in its own process. */
export async function statsOf(target: ChildProcess, gc: boolean) {
  const answer = nextMessage<Extract<TargetMessage, { type: 'stats' }>>(target, 'stats', 30_000);
  target.send({ type: 'stats', gc });
  return answer;
}

/** Forks a load worker (bench/realtime/load-worker.ts). */
export function forkLoadWorker(): ChildProcess {
  return fork(here('./load-worker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
}

type StartCommand = Extract<WorkerCommand, { type: 'start' }>;
type Connected = Extract<WorkerMessage, { type: 'connected' }>;

/** Sends a load worker its share; resolves when every socket of it has connected (or failed). */
export function startLoad(worker: ChildProcess, share: Omit<StartCommand, 'type'>): Promise<Connected> {
  const done = nextMessage<Connected>(worker, 'connected', 900_000);
  worker.send({ type: 'start', ...share } satisfies WorkerCommand);
  return done;
}
