import { defineProject } from 'vitest/config';

/** Browser journeys: Debian's Chromium driven by playwright-core against the real server. */
export default defineProject({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
