import { defineProject } from 'vitest/config';

/** The SDK as bot makers get it: its tarball built, installed in an empty folder and used there. */
export default defineProject({
  test: {
    name: 'sdk',
    include: ['test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
