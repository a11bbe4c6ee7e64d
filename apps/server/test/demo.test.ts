import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DemoBotsFile } from '@bot/bot-agent';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from './harness.ts';

/**
 * The demo steps of docs/operations.md, typed as written with a port and a data folder of their own: with only
 * PORT and DATA_DIR set, the seed, the server and the simulator must find each other (issue 29).
 */
const rootDir = fileURLToPath(new URL('../../..', import.meta.url));
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
  for (const dir of dirs) {
    await rm(dir, { recursive: true, force: true });
    await rm(`${dir}.master-key`, { force: true }); // the embedded default master key, beside it
  }
});

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm run …` from the repository root, leading its own process group (as in a terminal). */
function npm(args: string[], env: Record<string, string>): Run {
  let output = '';
  const child = spawn('npm', args, {
    cwd: rootDir,
    env: { ...process.env, DATABASE_URL: '', PUBLIC_URL: '', ...env },
    detached: true,
  });
  children.push(child);
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const waitForOutput = (run: Run, text: string) =>
  vi.waitFor(
    () => {
      if (!run.output().includes(text))
        throw new Error(`pas encore « ${text} » :\n${run.output().slice(-2000)}`);
    },
    { timeout: 60_000, interval: 50 },
  );

/**
 * Ctrl-C in the simulator's terminal: it stops its bots and says so (tsx, then npm, end on the
 * signal itself, as a shell expects of a program interrupted by Ctrl-C).
 */
async function interrupt(run: Run): Promise<void> {
  process.kill(-run.child.pid!, 'SIGINT');
  await run.exited;
  expect(run.output()).toMatch(/Arrêt après \d+ s/);
}

describe('the demo with PORT and DATA_DIR of its own', () => {
  it('seed:demo, npm start and simulate (with --version) work together as documented', {
    timeout: 180_000,
  }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bot-demo-'));
    dirs.push(dataDir);
    const port = String(await freePort());
    const env = { PORT: port, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };

    const seed = npm(['run', 'seed:demo', '--', '--users', '3'], env);
    expect(await seed.exited, seed.output()).toBe(0);
    expect(seed.output()).toContain(`Ensuite : PORT=${port} DATA_DIR=${dataDir} npm start`);
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-bots.json'), 'utf8')) as DemoBotsFile;
    expect(demo).toMatchObject({ serverUrl: `http://127.0.0.1:${port}`, agentVersion: '1.0.0' });
    expect(demo.bots).toHaveLength(3);

    const server = npm(['start'], { ...env, LOG_LEVEL: 'info' });
    await waitForOutput(server, 'Plateforme prête');
    const password = server.output().match(/mot de passe : (\S+)/)?.[1];
    const api = `http://127.0.0.1:${port}/api`;
    const login = await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const { token } = (await login.json()) as { token: string };
    const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const botsOnline = async (version: string) => {
      const answer = await fetch(`${api}/admin/users-online/bots?version=${version}`, { headers: admin });
      return ((await answer.json()) as { data: { version: string }[] }).data;
    };

    // The simulator finds the seed's file and the server through DATA_DIR and PORT alone.
    const simulated = npm(['run', 'simulate', '--', '--bots', '2'], env);
    await vi.waitFor(async () => expect(await botsOnline('1.0.0')).toHaveLength(2), {
      timeout: 60_000,
      interval: 200,
    });
    await interrupt(simulated);

    // --version plays an older agent: refused, told where this server offers the download.
    const raised = await fetch(`${api}/admin/settings`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ minBotVersion: '1.5.0' }),
    });
    expect(raised.status).toBe(200);
    const outdated = npm(['run', 'simulate', '--', '--bots', '1', '--version', '1.4.0'], env);
    await waitForOutput(outdated, 'arrêt : BOT_VERSION_OUTDATED');
    expect(outdated.output()).toContain(`http://localhost:${port}/started`);
    await interrupt(outdated);

    // And a newer one is online as that version.
    const newer = npm(['run', 'simulate', '--', '--bots', '1', '--version', '1.6.0'], env);
    await vi.waitFor(async () => expect(await botsOnline('1.6.0')).toHaveLength(1), {
      timeout: 60_000,
      interval: 200,
    });
    await interrupt(newer);

    process.kill(-server.child.pid!, 'SIGINT');
    expect(await server.exited).toBe(0);
  });
});
