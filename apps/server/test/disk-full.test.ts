import { execFileSync } from 'node:child_process';
import { mkdir, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainStartupError } from '../src/core/startup-errors.ts';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from './harness.ts';

/**
 * Operations round 3, defect 3: a full disk was reported as corruption. Writes answered 500, and a
 * start with the disk still full said the embedded database was damaged and advised restoring a
 * backup (after freeing space it started with every acknowledged write). DATA_DIR is a small tmpfs
 * here, filled to the last byte: a real full disk.
 */
const dataDir = path.join(os.tmpdir(), `bot-disk-full-${process.pid}`);
const filler = path.join(dataDir, 'filler');
let server: TestServer | undefined;

/** Writes zeros until the disk refuses (ENOSPC). */
async function fillDisk(): Promise<void> {
  const file = await open(filler, 'a');
  try {
    const block = Buffer.alloc(256 * 1024);
    for (;;) await file.write(block);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    await file.close().catch(() => {});
  }
}

beforeAll(async () => {
  await mkdir(dataDir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', dataDir]);
});
afterAll(async () => {
  await server?.close().catch(() => {});
  execFileSync('umount', ['-l', dataDir]);
  await rm(dataDir, { recursive: true, force: true });
});

describe('a full disk', () => {
  it('answers writes 503 DISK_FULL naming the disk, and writes again once there is room', {
    timeout: 120_000,
  }, async () => {
    server = await startTestServer({ openDatabaseFromConfig: true, env: { DATA_DIR: dataDir } });
    const call = apiClient(server);
    const owner = await server.createUser();
    const login = () =>
      call('POST', '/auth/login', { username: owner.user.username, password: TEST_PASSWORD });
    expect((await login()).status).toBe(200);

    await fillDisk();
    // Enough writes to need a new page of the write-ahead log.
    let refused: { status: number; body: unknown } | undefined;
    for (let attempt = 0; attempt < 200 && !refused; attempt++) {
      const answer = await login();
      if (answer.status !== 200) refused = answer;
    }
    expect(refused).toMatchObject({ status: 503, body: { code: 'DISK_FULL' } });
    expect((refused as { body: { error: string } }).body.error).toContain(
      `Le disque du dossier de données (${dataDir}) est plein`,
    );

    await rm(filler);
    expect((await login()).status).toBe(200);
  });

  it('says to free space at start-up, not to restore a backup', { timeout: 120_000 }, async () => {
    await server?.close();
    server = undefined;
    await fillDisk();
    // What main.ts prints for a failed start is explainStartupError's paragraph.
    const failure = await startTestServer({ openDatabaseFromConfig: true, env: { DATA_DIR: dataDir } }).then(
      async (started) => {
        await started.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(failure).toBeDefined();
    const explained = explainStartupError(failure, { dataDir, port: 3000, host: '127.0.0.1' });
    expect(explained).toContain(`Le disque de ${dataDir} est plein`);
    expect(explained).not.toMatch(/Restaurez une sauvegarde/);
    // After a crash the lock is taken over and the embedded database itself aborts without a cause
    // ("Aborted()"): on a disk with no room left that is the disk, not damage.
    const aborted = new Error('Aborted(). Build with -sASSERTIONS for more info.');
    expect(explainStartupError(aborted, { dataDir, port: 3000, host: '127.0.0.1' })).toContain(
      `Le disque de ${dataDir} est plein`,
    );

    await rm(filler);
    server = await startTestServer({ openDatabaseFromConfig: true, env: { DATA_DIR: dataDir } });
    expect((await apiClient(server)('GET', '/readyz')).status).toBe(200);
  });

  it('recognises PostgreSQL’s own disk_full (SQLSTATE 53100) at start-up too', () => {
    const error = Object.assign(
      new Error('could not extend file "base/16384/2619": No space left on device'),
      {
        code: '53100',
      },
    );
    expect(explainStartupError(error, { dataDir, port: 3000, host: '127.0.0.1' })).toContain('est plein');
  });
});
