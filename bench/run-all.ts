/**
 * `npm run bench [-- --quick]`: every benchmark, one after the other, each writing its section of
 * docs/benchmarks.md and its figures (value, unit, baseline, ratio, goal) in docs/benchmarks.json.
 *
 * `--quick` runs each at a toy size into a temporary directory (`BENCH_RECORD_DIR`), not the record:
 * the smoke run of `npm test` (bench/bench.smoke.test.ts), proving that every benchmark still runs
 * end to end and yields its figures. Its numbers mean nothing.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
});

interface Benchmark {
  /** Its key in docs/benchmarks.json. */
  key: string;
  script: string;
  full: string[];
  quick: string[];
  /** Run with `node --expose-gc` (heap figures). */
  gc?: boolean;
}

export const BENCHMARKS: Benchmark[] = [
  { key: 'http', script: 'bench/http/run.ts', full: [], quick: ['--seconds', '1', '--runs', '1'] },
  {
    key: 'realtime',
    script: 'bench/realtime/run.ts',
    full: [],
    quick: ['--sizes', '100', '--duration', '2', '--warmup', '1'],
  },
  {
    key: 'storm',
    script: 'bench/realtime/run.ts',
    full: ['--storm', '3000,10000', '--steady', '1000'],
    quick: ['--storm', '100', '--steady', '20'],
  },
  {
    key: 'commerce',
    script: 'bench/commerce/run.ts',
    full: [],
    quick: ['--customers', '20', '--limit', '5', '--purchases', '10'],
  },
  {
    key: 'backOffice',
    script: 'bench/back-office/run.ts',
    full: [],
    quick: ['--users', '500', '--requests', '5'],
    gc: true,
  },
  { key: 'map', script: 'bench/map/run.ts', full: [], quick: ['--accounts', '200', '--seconds', '1'] },
  { key: 'lighthouse', script: 'bench/lighthouse/run.ts', full: [], quick: ['--quick'] },
  {
    key: 'cluster',
    script: 'bench/cluster/run.ts',
    full: [],
    quick: ['--sizes', '100', '--duration', '2', '--warmup', '1', '--storm', '60'],
  },
];

function main(): void {
  const only = values.only?.split(',');
  // The map, Lighthouse and the cluster run the built web app and server.
  if (!values.quick) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  for (const benchmark of BENCHMARKS) {
    if (only && !only.includes(benchmark.key)) continue;
    console.log(`\n=== ${benchmark.key}${values.quick ? ' (quick)' : ''}`);
    execFileSync(
      process.execPath,
      [
        ...(benchmark.gc ? ['--expose-gc'] : []),
        '--import',
        'tsx',
        benchmark.script,
        ...(values.quick ? benchmark.quick : benchmark.full),
      ],
      { stdio: 'inherit' },
    );
  }
}

main();
