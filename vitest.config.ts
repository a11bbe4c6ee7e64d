import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['apps/server', 'packages/contracts', 'apps/web', 'e2e'],
    maxWorkers: 2,
  },
});
