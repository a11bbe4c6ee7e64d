import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTemplate } from '../../apps/server/test/database.ts';

const webDir = fileURLToPath(new URL('../../apps/web/', import.meta.url));
const contractsDir = fileURLToPath(new URL('../../packages/contracts/src/', import.meta.url));
const WEB_DIST = path.join(webDir, 'dist');

function newestMtime(target: string): number {
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(target).reduce(
    (newest, name) => Math.max(newest, newestMtime(path.join(target, name))),
    info.mtimeMs,
  );
}

/**
 * Builds the web app once when dist is missing or older than its sources (E2E_REBUILD=1 forces it),
 * snapshots it for this run, and builds the test database template.
 */
export default async function setup(): Promise<() => void> {
  const stamp = path.join(WEB_DIST, 'build.json');
  const sources = [
    path.join(webDir, 'src'),
    path.join(webDir, 'public'),
    path.join(webDir, 'index.html'),
    path.join(webDir, 'vite.config.ts'),
    contractsDir,
  ];
  const isStale =
    !existsSync(stamp) ||
    Math.max(...sources.map(newestMtime)) > statSync(stamp).mtimeMs ||
    process.env.E2E_REBUILD === '1';
  if (isStale) {
    // Build aside, then swap: other test runs may be reading the current dist meanwhile.
    const staging = path.join(webDir, `dist.staging-${process.pid}`);
    const vite = path.join(webDir, '../../node_modules/vite/bin/vite.js');
    execFileSync(
      process.execPath,
      [vite, 'build', '--logLevel', 'warn', '--outDir', staging, '--emptyOutDir'],
      {
        cwd: webDir,
        stdio: 'inherit',
        // Vitest sets NODE_ENV=test; a web build must be a production build (vite.config.ts also forces it).
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    const previous = path.join(webDir, `dist.previous-${process.pid}`);
    if (existsSync(WEB_DIST)) renameSync(WEB_DIST, previous);
    renameSync(staging, WEB_DIST);
    rmSync(previous, { recursive: true, force: true });
  }
  // Each run serves its own snapshot: another run may rebuild apps/web/dist while this one is going.
  const snapshot = mkdtempSync(path.join(os.tmpdir(), 'e2e-web-'));
  cpSync(WEB_DIST, snapshot, { recursive: true });
  process.env.E2E_WEB_DIST = snapshot;

  await ensureTemplate();
  return () => rmSync(snapshot, { recursive: true, force: true });
}
