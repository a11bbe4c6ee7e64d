import { defineProject } from 'vitest/config';

/**
 * Several nodes on one PostgreSQL and one Redis (real servers started by the tests), and the real
 * upgrade of an older install (test/upgrade). A project of its own: it brings its own databases, so
 * it does not run again in the PostgreSQL pass of CI. Its files run beside the server tests (each
 * brings its own servers on free ports): most of their time is spent waiting for processes to start,
 * stop and notice each other.
 */
export default defineProject({
  // Our packages from their sources: the `source` export condition (decision 001). Vitest gives the
  // workers' Node the same conditions, so the list holds nothing else (Node would take `module`).
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'cluster',
    include: ['test/cluster/**/*.test.ts', 'test/upgrade/**/*.test.ts'],
    globalSetup: ['./test/cluster/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
