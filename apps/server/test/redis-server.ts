import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from './harness.ts';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Kills the server (an outage: nothing saved, clients see their connections drop). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/**
 * A real Redis server of the test's own (Debian's redis-server) on a free loopback port, without
 * persistence: `stop` and `start` are a Redis outage and its recovery.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: 'ignore' },
    );
    await waitUntilAnswering(port);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

async function waitUntilAnswering(port: number): Promise<void> {
  const client = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 50, maxRetriesPerRequest: null });
  client.on('error', () => {});
  try {
    await client.ping();
  } finally {
    client.disconnect();
  }
}
