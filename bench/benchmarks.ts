/** Every benchmark `npm run bench` runs (bench/run-all.ts), with its full and quick arguments. */
export interface Benchmark {
  /** Its key in docs/benchmarks.json. */
  key: string;
  script: string;
  full: string[];
  quick: string[];
  /** Run with `node --expose-gc` (heap figures). */
  gc?: boolean;
}

export const BENCHMARKS: Benchmark[] = [
  // First: the longest, so the quick run's two lanes finish together.
  {
    key: 'cluster',
    script: 'bench/cluster/run.ts',
    full: [],
    quick: ['--sizes', '100', '--duration', '2', '--warmup', '1', '--storm', '60'],
  },
  { key: 'revocation', script: 'bench/revocation/run.ts', full: [], quick: ['--bots', '30'] },
  { key: 'http', script: 'bench/http/run.ts', full: [], quick: ['--seconds', '1', '--runs', '1'] },
  {
    key: 'httpPostgres',
    script: 'bench/http/run.ts',
    full: ['--postgres'],
    quick: ['--postgres', '--seconds', '1', '--runs', '1'],
  },
  {
    key: 'realtime',
    script: 'bench/realtime/run.ts',
    full: [],
    quick: ['--sizes', '100', '--duration', '2', '--warmup', '1'],
  },
  {
    key: 'realtimePostgres',
    script: 'bench/realtime/run.ts',
    full: ['--postgres'],
    quick: ['--postgres', '--sizes', '100', '--duration', '2', '--warmup', '1'],
  },
  {
    key: 'storm',
    script: 'bench/realtime/run.ts',
    full: ['--storm', '3000,10000', '--steady', '1000'],
    quick: ['--storm', '100', '--steady', '20'],
  },
  {
    key: 'mapFeed',
    script: 'bench/realtime/run.ts',
    full: ['--map-feed'],
    quick: ['--map-feed', '--sizes', '100', '--duration', '2', '--warmup', '1'],
  },
  {
    key: 'overload',
    script: 'bench/realtime/run.ts',
    full: ['--overload'],
    quick: ['--overload', '--quick'],
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
];
