import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'apps/server',
      'apps/server/vitest.cluster.config.ts',
      'apps/bot-agent',
      'packages/contracts',
      'apps/web',
      'e2e',
      'bench',
    ],
    maxWorkers: 2,
  },
});
