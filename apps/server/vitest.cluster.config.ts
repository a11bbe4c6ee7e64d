import { defineProject } from 'vitest/config';

/**
 * Several nodes on one PostgreSQL and one Redis (real servers started by the tests). A project of
 * its own: it brings its own database, so it does not run again in the PostgreSQL pass of CI.
 */
export default defineProject({
  test: {
    name: 'cluster',
    include: ['test/cluster/**/*.test.ts'],
    globalSetup: ['./test/cluster/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
