import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, vi } from 'vitest';
import { freePort } from '../harness.ts';

/** The real start-up path: `npm start` from the repository root, or the compiled server itself. */
const rootDir = fileURLToPath(new URL('../../../..', import.meta.url));
const node = path.join(rootDir, 'node_modules/.bin/node');
const compiledServer = path.join(rootDir, 'apps/server/dist/main.js');

/**
 * Fresh folders for the calling test file, removed after it with what a start leaves beside them
 * (the embedded default master key, `<folder>.master-key`).
 */
export function useTempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) {
      await rm(dir, { recursive: true, force: true });
      await rm(`${dir}.master-key`, { force: true });
    }
  });
  return async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/**
 * A port free right now, from the system: a random pick could collide with a port the suite's own
 * connections hold (one did in CI: "port 32796 already used").
 */
export const availablePort = async () => String(await freePort());

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `detached`: the child leads a process group of its own, as a terminal's foreground job does
 * (Ctrl-C signals the whole group: npm and the server).
 */
export function spawnServer(
  how: 'npm start' | 'compiled',
  env: Record<string, string>,
  options: { detached?: boolean; cwd?: string } = {},
): Started {
  let output = '';
  const [command, args] = how === 'npm start' ? ['npm', ['start']] : [node, [compiledServer]];
  const child = spawn(command as string, args as string[], {
    cwd: options.cwd ?? rootDir,
    env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: '', ...env },
    detached: options.detached ?? false,
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export const waitForOutput = (
  started: Started,
  text: string | RegExp,
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
) =>
  vi.waitFor(
    () => {
      const output = started.output();
      if (typeof text === 'string' ? !output.includes(text) : !text.test(output))
        throw new Error(`pas encore « ${text} » :\n${output.slice(-2000)}`);
    },
    { timeout: timeoutMs, interval: 50 },
  );
