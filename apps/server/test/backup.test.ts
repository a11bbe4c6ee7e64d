import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByUsername } from '../src/modules/users/index.ts';
import { startTestServer, type TestServer } from './harness.ts';

const run = promisify(execFile);
const rootDir = fileURLToPath(new URL('../../..', import.meta.url));

/** `npm run backup|restore` as an operator runs it; answers exit code and output. */
async function npmRun(script: 'backup' | 'restore', args: string[], dataDir: string) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
      cwd: rootDir,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ openDatabaseFromConfig: true });
}, 120_000);
afterAll(async () => server?.close());

describe('npm run backup / restore (embedded database)', () => {
  it("refuses a live copy, then round-trips: the restored database has the data of the backup; the tarball and the data are their owner's only", {
    timeout: 120_000,
  }, async () => {
    const { dataDir } = server.ctx.config;
    const file = path.join(os.tmpdir(), `bot-backup-${process.pid}-${Date.now()}.tar.gz`);
    await server.createUser({ username: 'avant_sauvegarde' });

    const live = await npmRun('backup', ['--out', file], dataDir);
    expect(live.code).toBe(1);
    expect(live.output).toContain('est déjà utilisé par un autre serveur');

    await server.restart(async () => {
      const backup = await npmRun('backup', ['--out', file], dataDir);
      expect(backup.output).toContain('Sauvegarde écrite');
      expect(backup.code).toBe(0);
      // It holds every user's data and the sealed secrets: no other local user reads it.
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });
    await server.createUser({ username: 'apres_sauvegarde' });

    await server.restart(async () => {
      const restore = await npmRun('restore', [file], dataDir);
      expect(restore.output).toContain('Base restaurée');
      expect(restore.code).toBe(0);
      // The restored files are closed to other users as well (PGlite writes them 0666).
      const open = readdirSync(dataDir, { recursive: true, withFileTypes: true })
        .map((entry) => path.join(entry.parentPath, entry.name))
        .filter((name) => (statSync(name).mode & 0o077) !== 0);
      expect(open).toEqual([]);
    });
    const { ctx } = server;
    expect(await findUserByUsername(ctx, 'avant_sauvegarde')).toBeDefined();
    expect(await findUserByUsername(ctx, 'apres_sauvegarde')).toBeUndefined();
    // The replaced database is kept aside, not deleted.
    expect(readdirSync(dataDir).some((name) => name.startsWith('pglite.before-restore-'))).toBe(true);
    expect(existsSync(file)).toBe(true);
  });
});
