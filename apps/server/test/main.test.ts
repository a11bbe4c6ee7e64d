import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function startMain(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  let output = '';
  const child = spawn(tsx, ['src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(check: () => boolean, timeoutMs = 40_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('main.ts', () => {
  it('refuses to start on a bad configuration and lists every bad variable', async () => {
    const { output, exited } = startMain({ PORT: 'abc', PUBLIC_URL: 'pas une url' });
    expect(await exited).toBe(1);
    expect(output()).toContain('Configuration invalide');
    expect(output()).toContain('PORT');
    expect(output()).toContain('PUBLIC_URL');
  });

  it('prints the first administrator once, serves the API and stops cleanly on SIGTERM', {
    timeout: 90_000,
  }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bot-main-'));
    dirs.push(dataDir);
    const port = String(20_000 + Math.floor(Math.random() * 20_000));
    const first = startMain({ DATA_DIR: dataDir, PORT: port });
    await waitFor(() => first.output().includes('Plateforme prête'));
    const password = first.output().match(/mot de passe : (\S+)/)?.[1];
    expect(password).toMatch(/^[\w-]{24}$/);

    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(login.status).toBe(200);
    const { user } = (await login.json()) as { user: { Policy: { IsAdministrator: boolean } } };
    expect(user.Policy.IsAdministrator).toBe(true);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // A second start on the same data keeps the administrator and prints no password.
    const second = startMain({ DATA_DIR: dataDir, PORT: port });
    await waitFor(() => second.output().includes('Plateforme prête'));
    expect(second.output()).not.toContain('mot de passe');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
