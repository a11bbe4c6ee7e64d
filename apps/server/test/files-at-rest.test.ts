import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { availablePort, spawnServer, useTempDirs, waitForOutput } from './helpers/server-process.ts';

/**
 * The real server process and what it leaves on disk (docs/security.md, "Storage"): the master key
 * beside the data, the modes of everything at rest.
 */
const tempDir = useTempDirs('bot-files-');

/** Every folder and file under `root` with a mode other than `dirMode` / `fileMode`. */
async function modesOtherThan(root: string, dirMode: number, fileMode: number): Promise<string[]> {
  const found: string[] = [];
  const visit = async (file: string) => {
    const info = await stat(file);
    const mode = info.mode & 0o777;
    if (info.isDirectory()) {
      if (mode !== dirMode) found.push(`${file} ${mode.toString(8)}`);
      for (const entry of await readdir(file)) await visit(path.join(file, entry));
    } else if (mode !== fileMode) found.push(`${file} ${mode.toString(8)}`);
  };
  await visit(root);
  return found;
}

describe('nothing at rest is readable by another local user', () => {
  it('the embedded default master key is created 0600 beside DATA_DIR and announced once; DATA_DIR, its files and the outbox are 0700/0600', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(await tempDir(), 'data');
    const keyFile = `${dataDir}.master-key`;
    // What an older version left: a world-readable folder and mail.
    await mkdir(path.join(dataDir, 'outbox'), { recursive: true });
    await chmod(dataDir, 0o755);
    await writeFile(path.join(dataDir, 'outbox', 'ancien.eml'), 'lien à usage unique', { mode: 0o644 });
    await chmod(path.join(dataDir, 'outbox', 'ancien.eml'), 0o644);

    const port = await availablePort();
    const first = spawnServer('compiled', {
      DATA_DIR: dataDir,
      PORT: port,
      ADMIN_EMAIL: 'admin@example.test',
    });
    await waitForOutput(first, 'Plateforme prête');
    expect(first.output()).toContain(`Clé maîtresse créée : ${keyFile}`);
    expect(first.output()).toContain('Sauvegardez-la à part des données');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await readFile(keyFile, 'utf8')).trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // While it serves, no folder is open to others (PGlite sets its own files 0666 inside them).
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dataDir, 'outbox', 'ancien.eml'))).mode & 0o777).toBe(0o600);
    expect(
      (await modesOtherThan(dataDir, 0o700, 0o600)).filter((line) => !line.includes('/pglite/')),
    ).toEqual([]);

    // A mail written to the outbox (no SMTP_URL) carries a one-time link: its owner's only.
    const forgot = await fetch(`http://127.0.0.1:${port}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.test' }),
    });
    expect(forgot.status).toBe(200);
    const outbox = path.join(dataDir, 'outbox');
    const mail = await vi.waitFor(
      async () => {
        const name = (await readdir(outbox)).find((entry) => entry !== 'ancien.eml');
        if (!name) throw new Error('pas encore de mail dans l’outbox');
        return path.join(outbox, name);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect((await stat(mail)).mode & 0o777).toBe(0o600);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(await modesOtherThan(dataDir, 0o700, 0o600)).toEqual([]);

    // The next start reads the same key and announces nothing.
    const second = spawnServer('compiled', { DATA_DIR: dataDir, PORT: port });
    await waitForOutput(second, 'Plateforme prête');
    expect(second.output()).not.toContain('Clé maîtresse créée');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('a data folder started with another master key refuses to start, saying the key does not match', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(await tempDir(), 'data');
    const port = await availablePort();
    const first = spawnServer('compiled', { DATA_DIR: dataDir, PORT: port });
    await waitForOutput(first, 'Plateforme prête');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const thief = spawnServer('compiled', {
      DATA_DIR: dataDir,
      PORT: port,
      MASTER_KEY: randomBytes(32).toString('base64'),
    });
    expect(await thief.exited).toBe(1);
    expect(thief.output()).toContain('La clé maîtresse ne correspond pas à ces données');
    expect(thief.output()).not.toMatch(/\n\s+at /);
  });
});
