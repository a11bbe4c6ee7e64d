import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const rootDir = fileURLToPath(new URL('../../..', import.meta.url));

/** `npm run keys:root|keys:rotate` as an operator runs them (decision 912): exit code and output. */
async function npmRun(script: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
      cwd: rootDir,
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'keys-root-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('the offline root key', () => {
  it('keys:root refuses a file inside DATA_DIR, writes one 0600 elsewhere; keys:rotate signs a public installation’s set with it', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(work, 'data');
    const env = {
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://bots.example.fr',
      PAYMENT_PROVIDER: 'sandbox',
      MASTER_KEY: Buffer.alloc(32, 3).toString('base64'),
    };
    const inside = await npmRun('keys:root', ['--out', path.join(dataDir, 'racine.jwk')], env);
    expect(inside.code).not.toBe(0);
    expect(inside.output).toContain('est dans DATA_DIR');
    expect(existsSync(path.join(dataDir, 'racine.jwk'))).toBe(false);

    const file = path.join(work, 'cle-usb', 'racine.jwk');
    const created = await npmRun('keys:root', ['--out', file], env);
    expect(created.code, created.output).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const privateJwk = JSON.parse(await readFile(file, 'utf8')) as { d?: string; x: string };
    expect(privateJwk.d).toBeTruthy();
    // What the vendor builds into its agent: the public half only.
    expect(created.output).toContain(`"x":"${privateJwk.x}"`);
    expect(created.output).not.toContain(privateJwk.d as string);
    expect((await npmRun('keys:root', ['--out', file], env)).output).toContain('existe déjà');

    const signed = await npmRun('keys:rotate', ['--root-key', file, '--purpose', 'none'], env);
    expect(signed.code, signed.output).toBe(0);
    expect(signed.output).toMatch(/Jeu de clés version 1 signé par la racine/);
  });
});
