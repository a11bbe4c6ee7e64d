import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './harness.ts';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../../scripts/test-postgres.sh', import.meta.url));

export interface PostgresServer {
  /** `postgres://postgres:postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its files. */
  destroy(): Promise<void>;
}

/**
 * A real PostgreSQL server of its own for tests that stop and start it (outages) or need a
 * throw-away one: scripts/test-postgres.sh on a free port and a temporary folder.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bot-pg-'));
  await chmod(dir, 0o755); // the server runs as the postgres user
  const env = { ...process.env, PGPORT: String(port), PGDIR: path.join(dir, 'data') };
  const call = async (command: 'start' | 'stop') =>
    (await run('bash', [script, command], { env })).stdout.trim();
  const url = await call('start');
  return {
    url,
    port,
    start: async () => void (await call('start')),
    stop: async () => void (await call('stop')),
    async destroy() {
      await call('stop');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
