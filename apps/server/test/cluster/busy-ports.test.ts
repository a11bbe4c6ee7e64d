import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startLocalCluster } from '../../../../deploy/local-cluster.ts';
import { freePort } from '../harness.ts';

const holders: Server[] = [];
afterAll(() => Promise.all(holders.map((holder) => new Promise((resolve) => holder.close(resolve)))));

/** A port some other program holds (a PostgreSQL of another cluster, say). */
async function heldPort(): Promise<number> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  holders.push(holder);
  return (holder.address() as { port: number }).port;
}

it('refuses to start when PostgreSQL’s port is taken, naming it, before starting anything', async () => {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'cluster-busy-'));
  try {
    const postgres = await heldPort();
    const [nginx, redis, node] = [await freePort(), await freePort(), await freePort()];
    await expect(
      startLocalCluster({ workDir, ports: { nginx, postgres, redis, nodes: [node] } }),
    ).rejects.toThrow(`port déjà pris : ${postgres} (PostgreSQL)`);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
});
