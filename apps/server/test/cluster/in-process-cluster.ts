import type { AppConfig } from '../../src/config.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { type PostgresServer, startPostgresServer } from '../postgres-server.ts';
import { type RedisServer, startRedisServer } from '../redis-server.ts';

export interface InProcessCluster {
  postgres: PostgresServer;
  redis: RedisServer;
  nodes: TestServer[];
  close(): Promise<void>;
}

/**
 * Several real nodes (each its own Fastify server, Socket.IO hub and data folder, listening on its
 * own port) sharing one real PostgreSQL and one real Redis, as behind a load balancer. Each test
 * talks to the node it names: "a bot on B, an admin on A".
 */
export async function startInProcessCluster(
  options: {
    nodes?: number;
    realtime?: Partial<AppConfig['realtime']>;
    rateLimits?: Partial<AppConfig['rateLimits']>;
    alerts?: Partial<AppConfig['alerts']>;
    commands?: Partial<AppConfig['commands']>;
  } = {},
): Promise<InProcessCluster> {
  const [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
  const nodes: TestServer[] = [];
  // One after the other: the first applies the migrations, the others find them applied.
  for (let i = 0; i < (options.nodes ?? 2); i += 1) {
    nodes.push(
      await startTestServer({
        env: { DATABASE_URL: postgres.url, REDIS_URL: redis.url },
        openDatabaseFromConfig: true,
        realtime: options.realtime,
        rateLimits: options.rateLimits,
        alerts: options.alerts,
        commands: options.commands,
      }),
    );
  }
  return {
    postgres,
    redis,
    nodes,
    async close() {
      for (const node of nodes) await node.close();
      await redis.stop();
      await postgres.destroy();
    },
  };
}
