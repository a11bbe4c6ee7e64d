import { defineProject } from 'vitest/config';

export default defineProject({
  // Our packages from their sources: the `source` export condition (decision 001). Vitest gives the
  // workers' Node the same conditions, so the list holds nothing else (Node would take `module`).
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/cluster/**', 'test/upgrade/**'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each file builds its own app and database; the modules (the whole server) are loaded once per
    // worker instead of once per file.
    isolate: false,
  },
});
