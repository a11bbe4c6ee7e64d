import { defineProject } from 'vitest/config';

/**
 * The smoke run of every benchmark (`npm run bench -- --quick`): it needs the built web app (map,
 * Lighthouse) and server (cluster), and Redis and nginx (cluster), as the e2e and cluster projects do.
 */
export default defineProject({
  test: {
    name: 'bench',
    include: ['**/*.smoke.test.ts'],
    // The built web app and server first, then the smoke run starts beside the other projects' tests.
    globalSetup: [
      '../e2e/support/global-setup.ts',
      '../apps/server/test/cluster/global-setup.ts',
      './support/smoke-run.ts',
    ],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    // Its own group, after the browser journeys: by then the run it waits for has ended.
    sequence: { groupOrder: 2 },
    pool: 'forks',
  },
});
