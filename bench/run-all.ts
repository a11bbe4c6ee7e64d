/**
 * `npm run bench [-- --quick]`: every benchmark, one after the other, each writing its section of
 * docs/benchmarks.md and its figures (value, unit, baseline, ratio, goal) in docs/benchmarks.json.
 *
 * `--quick` runs each at a toy size into a temporary directory (`BENCH_RECORD_DIR`), not the record:
 * the smoke run of `npm test` (bench/bench.smoke.test.ts), proving that every benchmark still runs
 * end to end and yields its figures. Its numbers mean nothing, so its benchmarks run two at a time
 * (most of a toy run is starting servers and waiting out fixed windows), each into a folder of its
 * own, merged at the end.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { BENCHMARKS, type Benchmark } from './benchmarks.ts';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
});

const QUICK_LANES = 2;

async function main(): Promise<void> {
  const only = values.only?.split(',');
  const chosen = BENCHMARKS.filter((benchmark) => !only || only.includes(benchmark.key));
  // The map, Lighthouse and the cluster run the built web app and server.
  if (!values.quick) {
    execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
    for (const benchmark of chosen) {
      console.log(`\n=== ${benchmark.key}`);
      execFileSync(process.execPath, argumentsOf(benchmark), { stdio: 'inherit' });
    }
    return;
  }
  const recordDir = process.env.BENCH_RECORD_DIR;
  if (!recordDir) throw new Error('--quick writes to BENCH_RECORD_DIR (a temporary folder)');
  const queue = [...chosen];
  // The first failure stops the other lane too (its benchmark gets SIGTERM and cleans up).
  const stop = new AbortController();
  let failure: unknown;
  const lane = async () => {
    for (let next = queue.shift(); next && !stop.signal.aborted; next = queue.shift()) {
      await runQuick(next, path.join(recordDir, next.key), stop.signal).catch((error: unknown) => {
        if (!stop.signal.aborted) failure = error;
        stop.abort();
      });
    }
  };
  await Promise.all(Array.from({ length: QUICK_LANES }, lane));
  if (failure) throw failure;
  mergeRecords(recordDir, chosen);
}

function argumentsOf(benchmark: Benchmark): string[] {
  return [
    ...(benchmark.gc ? ['--expose-gc'] : []),
    '--import',
    'tsx',
    benchmark.script,
    ...(values.quick ? benchmark.quick : benchmark.full),
  ];
}

/** Runs one benchmark at its toy size, its results into `recordDir`, its output printed in one piece. */
async function runQuick(benchmark: Benchmark, recordDir: string, signal: AbortSignal): Promise<void> {
  mkdirSync(recordDir, { recursive: true });
  const startedAt = Date.now();
  const printed = (output: { stdout?: string; stderr?: string }) => {
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    process.stdout.write(`\n=== ${benchmark.key} (quick, ${seconds} s)\n${output.stdout ?? ''}`);
    process.stderr.write(output.stderr ?? '');
  };
  const run = promisify(execFile)(process.execPath, argumentsOf(benchmark), {
    env: { ...process.env, BENCH_RECORD_DIR: recordDir },
    maxBuffer: 64 * 1024 * 1024,
    signal,
  });
  printed(
    await run.catch((error: Error & { stdout?: string; stderr?: string }) => {
      printed(error);
      throw error;
    }),
  );
}

/** One benchmarks.json and one benchmarks.md from the folders the quick run's benchmarks wrote. */
function mergeRecords(recordDir: string, benchmarks: Benchmark[]): void {
  const figures: Record<string, unknown> = {};
  const sections: string[] = ['# Benchmarks'];
  for (const { key } of benchmarks) {
    const own = path.join(recordDir, key);
    Object.assign(figures, JSON.parse(readFileSync(path.join(own, 'benchmarks.json'), 'utf8')));
    sections.push(
      readFileSync(path.join(own, 'benchmarks.md'), 'utf8')
        .replace(/^# Benchmarks\n/, '')
        .trim(),
    );
    rmSync(own, { recursive: true, force: true });
  }
  writeFileSync(path.join(recordDir, 'benchmarks.json'), `${JSON.stringify(figures, null, 2)}\n`);
  writeFileSync(path.join(recordDir, 'benchmarks.md'), `${sections.join('\n\n')}\n`);
}

main().catch((error: Error) => {
  // The failed benchmark's own output is printed above.
  console.error(`bench: ${error.message.split('\n')[0]}`);
  process.exit(1);
});
