import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/modules/settings/index.ts';
import { apiClient, startTestServer, type TestServer } from './harness.ts';

/**
 * Liveness touches nothing; readiness checks the database and a writable DATA_DIR, and names what
 * fails. DATA_DIR here is a 256 KiB tmpfs filled to the last byte: a real full disk.
 */
const dataDir = path.join(os.tmpdir(), `bot-full-disk-${process.pid}`);
let server: TestServer;

beforeAll(async () => {
  await mkdir(dataDir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dataDir]);
  server = await startTestServer({ env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await server?.close();
  execFileSync('umount', [dataDir]);
  await rm(dataDir, { recursive: true, force: true });
});

describe('health probes', () => {
  it('readiness answers 503 naming DATA_DIR when the disk is full, and 200 once there is room', async () => {
    const call = apiClient(server);
    expect(await call('GET', '/readyz')).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', dataDir: 'ok' } },
    });
    const filler = path.join(dataDir, 'filler');
    await writeFile(filler, Buffer.alloc(512 * 1024)).catch(() => {}); // ENOSPC once the disk is full
    const full = await call<{ error: string; code: string; checks: Record<string, string> }>(
      'GET',
      '/readyz',
    );
    expect(full.status).toBe(503);
    expect(full.body).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      checks: { database: 'ok', dataDir: 'failed' },
    });
    expect(full.body.error).toContain('DATA_DIR');
    // A full disk is said as such (it read "non inscriptible": an operator looked for a permission).
    expect(full.body.error).toContain('disque plein');
    expect((await call('GET', '/healthz')).status).toBe(200);

    await rm(filler);
    expect((await call('GET', '/readyz')).status).toBe(200);
  });

  it('maintenance mode affects neither probe', async () => {
    const call = apiClient(server);
    await updateSettings(server.ctx, {
      patch: { maintenanceMode: true },
      actor: { id: null, username: 'test', ip: null },
    });
    try {
      expect((await call('GET', '/packages')).status).toBe(503);
      expect((await call('GET', '/healthz')).status).toBe(200);
      expect((await call('GET', '/readyz')).status).toBe(200);
    } finally {
      await updateSettings(server.ctx, {
        patch: { maintenanceMode: false },
        actor: { id: null, username: 'test', ip: null },
      });
    }
  });
});
