import { defineProject } from 'vitest/config';

/** Browser journeys: Debian's Chromium driven by playwright-core against the real server. */
export default defineProject({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // One journey at a time: each drives Chromium and a server, so on two cores two at once each take
    // about twice as long (measured: 464 s in parallel against 491 s in a row), a 6 % gain not worth
    // the timing risk. The modules (the whole server) load once for all files.
    fileParallelism: false,
    isolate: false,
    // Its own group, after the others: a project of one worker cannot share a group with projects of two.
    sequence: { groupOrder: 1 },
    pool: 'forks',
  },
});
