import { defineProject } from 'vitest/config';

/**
 * Browser journeys: Debian's Chromium driven by playwright-core against the real server. A journey
 * keeps about one core and a half busy (its server, the browser's processes) and waits for the page
 * the rest of the time: the journeys run among the server's tests, two files at a time, each
 * filling the other's waits (`npm test` went from 806 s to 577 s on two cores, docs/architecture.md).
 */
export default defineProject({
  // Our packages from their sources: the `source` export condition (decision 001). Vitest gives the
  // workers' Node the same conditions, so the list holds nothing else (Node would take `module`).
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'e2e',
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // The modules (the whole server) load once per worker for all its files.
    isolate: false,
    pool: 'forks',
  },
});
