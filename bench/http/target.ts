/**
 * A target process of the HTTP benchmark (run by bench/http/run.ts through IPC):
 *  - `product`: the real app as `npm start` builds it (embedded PGlite in a temporary folder, or the
 *    PostgreSQL of DATABASE_URL; logs at LOG_LEVEL, default info, to this process's ignored output),
 *    with one activated user and a session; answers `{ url, token }`;
 *  - `hello`: a bare Fastify answering the JSON it is given on the same route (the baseline).
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { hashPassword } from '../../apps/server/src/core/passwords.ts';
import { createSession } from '../../apps/server/src/modules/auth/index.ts';
import { createUser } from '../../apps/server/src/modules/users/index.ts';
import { writeTemplateDataDir } from '../../apps/server/test/database.ts';
import { freePort } from '../shared.ts';

export type TargetCommand =
  | { type: 'start'; kind: 'product' }
  | { type: 'start'; kind: 'hello'; body: unknown }
  | { type: 'cpu' };
export interface TargetReady {
  type: 'ready';
  url: string;
  token: string;
}
/** The CPU time this process has used so far (user and system), in microseconds. */
export interface TargetCpu {
  type: 'cpu';
  micros: number;
}

async function startProduct(): Promise<TargetReady> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'bench-http-')),
    SMTP_URL: '',
    // A benchmark's throw-away data: a fixed master key, never a key file left beside DATA_DIR.
    MASTER_KEY: process.env.MASTER_KEY || Buffer.alloc(32, 9).toString('base64'),
  });
  // Already migrated, as after a first start (creating the embedded database costs seconds).
  if (!config.databaseUrl) await writeTemplateDataDir(config.dataDir);
  const app = await buildApp({ config });
  await app.listen({ port, host: '127.0.0.1' });
  const user = await createUser(app.ctx, {
    username: 'bench_http',
    email: 'bench_http@example.test',
    passwordHash: await hashPassword('Velours-Horloge-Cactus-93'),
    activatedAt: new Date(),
  });
  const { token } = await createSession(app.ctx, { userId: user.id, ip: '127.0.0.1', userAgent: 'bench' });
  return { type: 'ready', url, token };
}

async function startHello(body: unknown): Promise<TargetReady> {
  const app = Fastify();
  app.get('/api/me/info', async () => body);
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { type: 'ready', url: `http://127.0.0.1:${port}`, token: '' };
}

// Stopped with SIGTERM: exit normally, so that a CPU profile (--cpu-prof) is written.
process.once('SIGTERM', () => process.exit(0));

process.on('message', (command: TargetCommand) => {
  if (command.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ type: 'cpu', micros: user + system } satisfies TargetCpu);
    return;
  }
  const started = command.kind === 'product' ? startProduct() : startHello(command.body);
  started.then(
    (ready) => process.send?.(ready),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
