import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the smoke run writes its records, its output and, once it has ended, `outcome.json`. */
    benchSmokeDir: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts the smoke run of every benchmark (`npm run bench -- --quick`, bench/run-all.ts) as soon as
 * the test run begins. It spends most of its time waiting (servers starting, measurement windows),
 * so it runs beside the other projects' tests instead of after them (it kept `npm test` about two
 * minutes longer there); bench.smoke.test.ts waits for its outcome and reads its records.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
  const output = openSync(path.join(dir, 'output.log'), 'w');
  const run: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/run-all.ts', '--quick'], {
    cwd: root,
    env: { ...process.env, BENCH_RECORD_DIR: dir },
    stdio: ['ignore', output, output],
    // Its own process group: cut short, the run is stopped with every server it started.
    detached: true,
  });
  const ended = new Promise<void>((resolve) =>
    run.once('exit', (code, signal) => {
      writeFileSync(path.join(dir, 'outcome.json'), JSON.stringify({ code, signal }));
      resolve();
    }),
  );
  project.provide('benchSmokeDir', dir);
  return async () => {
    if (run.exitCode === null && run.signalCode === null && run.pid) process.kill(-run.pid, 'SIGTERM');
    await ended;
    rmSync(dir, { recursive: true, force: true });
  };
}
