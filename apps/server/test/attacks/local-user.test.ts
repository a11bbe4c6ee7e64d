import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { freePort } from '../harness.ts';

/**
 * Attack family 3: another local user. A real start (`npx tsx apps/server/src/main.ts`) on a
 * DATA_DIR of its own with no SMTP (mails go to the outbox) and no MASTER_KEY (the embedded default
 * makes one beside the folder), a reset mail, a stop, `npm run backup` (default place and --out),
 * `npm run restore` into a fresh folder: nothing it left may be open to the group or to others.
 */
const run = promisify(execFile);
const rootDir = fileURLToPath(new URL('../../../..', import.meta.url));
const parents: string[] = [];
afterAll(async () => {
  for (const dir of parents) await rm(dir, { recursive: true, force: true });
});

/** `find <dir> -printf '%m %p\n'`, as the tester reads it. */
async function modes(root: string): Promise<Array<{ mode: number; file: string }>> {
  const { stdout } = await run('find', [root, '-printf', '%m %p\\n']);
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const [mode, ...rest] = line.split(' ');
      return { mode: Number.parseInt(mode as string, 8), file: rest.join(' ') };
    });
}

const openToOthers = (entries: Array<{ mode: number; file: string }>) =>
  entries
    .filter((entry) => (entry.mode & 0o077) !== 0)
    .map((entry) => `${entry.mode.toString(8)} ${entry.file}`);

async function npmRun(script: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
      cwd: rootDir,
      env: { ...process.env, DATABASE_URL: '', ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('what the server leaves on disk, seen by another local user', () => {
  it('every file and folder of a start, an outbox mail, a stop, two backups and a restore is its owner’s only', {
    timeout: 240_000,
  }, async () => {
    // A parent the operator's umask would make 0755: the tester lists it, as anyone could.
    const parent = await mkdtemp(path.join(os.tmpdir(), 'bot-local-'));
    parents.push(parent);
    const dataDir = path.join(parent, 'data');
    const port = String(await freePort());
    let output = '';
    // `npx tsx apps/server/src/main.ts`, without npx's wrapper between the signal and the server.
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: rootDir,
      env: {
        ...process.env,
        DATABASE_URL: '',
        MASTER_KEY: '',
        MASTER_KEY_FILE: '',
        SMTP_URL: '',
        DATA_DIR: dataDir,
        PORT: port,
        HOST: '127.0.0.1',
        ADMIN_EMAIL: 'admin@example.test',
        LOG_LEVEL: 'info',
      },
    });
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    onTestFinished(() => void child.kill('SIGKILL'));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await vi.waitFor(
      () => {
        if (!output.includes('Plateforme prête')) throw new Error(output.slice(-1500));
      },
      { timeout: 120_000, interval: 100 },
    );
    const forgot = await fetch(`http://127.0.0.1:${port}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.test' }),
    });
    expect(forgot.status).toBe(200);
    await vi.waitFor(
      async () => {
        const outbox = path.join(dataDir, 'outbox');
        expect((await readdir(outbox)).length).toBeGreaterThan(0);
      },
      { timeout: 30_000, interval: 100 },
    );
    // While it serves: nothing reachable by others (a 0666 file in a 0700 folder is out of reach).
    const live = await modes(parent);
    const reachable = live.filter((entry) => {
      // reachable when every folder above it (inside parent) lets others through
      const above = live.filter(
        (dir) => entry.file.startsWith(`${dir.file}/`) && dir.file.startsWith(dataDir),
      );
      return above.every((dir) => (dir.mode & 0o001) !== 0);
    });
    expect(openToOthers(reachable.filter((entry) => entry.file !== parent))).toEqual([]);

    child.kill('SIGTERM');
    expect(await exited, output.slice(-1500)).toBe(0);

    // After the server's own stop: its files were tightened.
    expect
      .soft(openToOthers((await modes(parent)).filter((entry) => entry.file !== parent)), 'after the stop')
      .toEqual([]);
    const backupDefault = await npmRun('backup', [], { DATA_DIR: dataDir });
    expect(backupDefault.code, backupDefault.output).toBe(0);
    expect
      .soft(
        openToOthers((await modes(parent)).filter((entry) => entry.file !== parent)),
        'after npm run backup',
      )
      .toEqual([]);
    const outFile = path.join(parent, 'elsewhere', 'copie.tar.gz');
    const backupOut = await npmRun('backup', ['--out', outFile], { DATA_DIR: dataDir });
    expect(backupOut.code, backupOut.output).toBe(0);
    expect((await stat(outFile)).isFile()).toBe(true);
    const restoredDir = path.join(parent, 'restored');
    const restored = await npmRun('restore', [outFile], { DATA_DIR: restoredDir });
    expect(restored.code, restored.output).toBe(0);

    const all = await modes(parent);
    expect(all.some((entry) => entry.file === `${dataDir}.master-key`)).toBe(true);
    expect(openToOthers(all.filter((entry) => entry.file !== parent))).toEqual([]);
  });
});
