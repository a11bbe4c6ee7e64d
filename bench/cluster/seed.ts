import path from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { contextOf } from '../../apps/server/src/context.ts';
import type { LocalCluster } from '../../deploy/local-cluster.ts';
import type { BenchFixture } from '../realtime/protocol.ts';
import { seedBenchFixture } from '../realtime/server-target.ts';

/** Bot owners, sessions and an administrator, written straight to the cluster's PostgreSQL. */
export async function seedClusterFixture(
  cluster: LocalCluster,
  workDir: string,
  n: number,
): Promise<BenchFixture> {
  const app = await buildApp({
    config: loadConfig({
      DATABASE_URL: cluster.databaseUrl,
      ...cluster.masterKeyEnv,
      DATA_DIR: path.join(workDir, 'seed'),
      LOG_LEVEL: 'warn',
    }),
  });
  try {
    return await seedBenchFixture(contextOf(app).db, n);
  } finally {
    await app.close();
  }
}
