import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availablePort, type Started, spawnServer, waitForOutput } from '../helpers/server-process.ts';

/**
 * Operations round 3, defect 4, for real: an installation of an older commit, started once, then
 * `git pull && npm ci && npm start` as its operator would. The old start-up rebuilt the web app only
 * when `index.html` was missing, so the upgraded server went on serving the old app. The new start
 * must rebuild it, log the migrations it applies and the version it runs, and keep the data (the
 * old administrator's session still works). docs/operations.md, "Upgrading".
 */
const OLDER_COMMIT = '0364b73'; // the last commit of wave 3: version 0.1.0, the mtime rule
const rootDir = fileURLToPath(new URL('../../../../', import.meta.url));
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

let work: string;
let install: string;
let dataDir: string;
const running: Started[] = [];

/**
 * What `npm ci` leaves, without the network: the repository's installed packages, and the
 * workspaces linked to the install's own folders (a link to this checkout's would build its sources).
 */
async function linkDependencies(): Promise<void> {
  const modules = path.join(install, 'node_modules');
  await rm(modules, { recursive: true, force: true });
  await mkdir(path.join(modules, '@bot'), { recursive: true });
  for (const name of await readdir(path.join(rootDir, 'node_modules'))) {
    if (name !== '@bot') await symlink(path.join(rootDir, 'node_modules', name), path.join(modules, name));
  }
  const workspaces = {
    contracts: 'packages/contracts',
    server: 'apps/server',
    web: 'apps/web',
    'bot-agent': 'apps/bot-agent',
  };
  for (const [name, folder] of Object.entries(workspaces))
    await symlink(path.join(install, folder), path.join(modules, '@bot', name));
}

/** `npm start` in the install, until it serves; then its answers. */
async function start(port: string): Promise<Started> {
  const started = spawnServer(
    'npm start',
    { DATA_DIR: dataDir, PORT: port, HOST: '127.0.0.1' },
    { cwd: install },
  );
  running.push(started);
  await waitForOutput(started, 'Plateforme prête', { timeoutMs: 240_000 });
  return started;
}

async function stop(started: Started): Promise<number | null> {
  started.child.kill('SIGTERM');
  return started.exited;
}

/** The scripts and styles a page loads: the build it comes from (the served page is prerendered). */
const assetsOf = (html: string) =>
  [...html.matchAll(/\/assets\/[\w.-]+\.(?:js|css)/g)].map(([asset]) => asset).sort();
const servedAssets = async (port: string) =>
  assetsOf(await (await fetch(`http://127.0.0.1:${port}/`)).text());
const builtAssets = async () =>
  assetsOf(await readFile(path.join(install, 'apps/web/dist/index.html'), 'utf8'));

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'bot-upgrade-'));
  install = path.join(work, 'install');
  dataDir = path.join(work, 'data');
  git(work, 'clone', '--quiet', '--shared', '--no-checkout', rootDir, install);
  git(install, 'checkout', '--quiet', OLDER_COMMIT);
  await linkDependencies();
});
afterAll(async () => {
  for (const started of running) started.child.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
});

describe('an upgrade from an older commit with git pull, npm ci and npm start', () => {
  // Two real starts, each building the web app, the server and (the new one) the SDK: minutes
  // on two busy cores.
  it('serves the new web app, logs its migrations and version, and keeps the data', {
    timeout: 600_000,
  }, async () => {
    const port = await availablePort();
    const old = await start(port);
    const admin = /identifiant : (\S+)\n\s+mot de passe : (\S+)/.exec(old.output());
    expect(admin).not.toBeNull();
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: admin?.[1], password: admin?.[2] }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const oldAssets = await servedAssets(port);
    expect(oldAssets.length).toBeGreaterThan(0);
    expect(oldAssets).toEqual(await builtAssets());
    expect(await stop(old)).toBe(0);

    // The operator's upgrade: the new commit, its packages, the same data folder.
    git(install, 'checkout', '--quiet', git(rootDir, 'rev-parse', 'HEAD'));
    await linkDependencies();
    const upgraded = await start(port);

    const newAssets = await builtAssets();
    expect(newAssets).not.toEqual(oldAssets);
    expect(await servedAssets(port)).toEqual(newAssets);
    const output = upgraded.output();
    expect(output).toContain('Construction de l’application web');
    expect(output).toMatch(/migration appliquée : \d{4}_/);
    const { version } = JSON.parse(await readFile(path.join(rootDir, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(output).toContain(`Plateforme prête (version ${version})`);
    const health = (await (await fetch(`http://127.0.0.1:${port}/api/healthz`)).json()) as {
      version: string;
    };
    expect(health.version).toBe(version);
    const me = await fetch(`http://127.0.0.1:${port}/api/me/info`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(200);
    expect(await stop(upgraded)).toBe(0);
  });
});
