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
import { BENCHMARKS } from './benchmarks.ts';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
});

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
