// Builds what was never built (the web app, the compiled server, the SDK's tarball) or whose sources
// changed since it was built. Used by `npm start` and `npm run cluster`, so `git pull && npm ci &&
// npm start` serves the new web app, not the one built before the pull (docs/operations.md, "Upgrading").
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
/** The compiled server every node runs. */
export const serverMain = path.join(root, 'apps/server/dist/main.js');

/**
 * What each built part is made from, and where its build leaves the digest of those sources. A
 * digest of the contents, not modification times: an upgrade unpacked from an archive keeps the old
 * times, and a checkout of an older commit gives them new ones.
 */
export const BUILT_PARTS = {
  web: {
    label: 'Construction de l’application web',
    workspace: '@bot/web',
    output: 'apps/web/dist/index.html',
    stamp: 'apps/web/dist/.sources-digest',
    sources: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'packages/contracts/src',
      'package-lock.json',
    ],
  },
  server: {
    label: 'Compilation du serveur',
    workspace: '@bot/server',
    output: 'apps/server/dist/main.js',
    stamp: 'apps/server/dist/.sources-digest',
    sources: [
      'apps/server/src',
      'apps/server/scripts',
      'apps/server/package.json',
      'packages/contracts/src',
      'package-lock.json',
    ],
  },
  sdk: {
    label: 'Construction du SDK des bots',
    workspace: '@bot/bot-agent',
    output: 'apps/bot-agent/dist/bot-sdk.tgz',
    stamp: 'apps/bot-agent/dist/.sources-digest',
    sources: [
      'apps/bot-agent/src',
      'apps/bot-agent/scripts',
      'apps/bot-agent/package.json',
      'apps/bot-agent/tsconfig.build.json',
      'apps/bot-agent/README.md',
      'apps/bot-agent/CHANGELOG.md',
      'packages/contracts/src',
      'package-lock.json',
    ],
  },
};

/** SHA-256 over every source file's path and bytes, in a stable order (absent sources count as such). */
export function sourcesDigest(base, sources) {
  const hash = createHash('sha256');
  const visit = (relative) => {
    const absolute = path.join(base, relative);
    if (!existsSync(absolute)) return void hash.update(`absent ${relative}\n`);
    if (statSync(absolute).isDirectory()) {
      for (const name of readdirSync(absolute).sort()) visit(path.join(relative, name));
      return;
    }
    hash.update(`file ${relative}\n`);
    hash.update(readFileSync(absolute));
  };
  for (const source of sources) visit(source);
  return hash.digest('hex');
}

/** The parts to build under `base`: never built, or built from other sources than today's. */
export function staleParts(base = root) {
  return Object.entries(BUILT_PARTS)
    .filter(([, part]) => {
      const stamp = path.join(base, part.stamp);
      if (!existsSync(path.join(base, part.output)) || !existsSync(stamp)) return true;
      return readFileSync(stamp, 'utf8').trim() !== sourcesDigest(base, part.sources);
    })
    .map(([name]) => name);
}

/** After a build: remember which sources it was made from. */
export function recordBuilt(name, base = root) {
  const part = BUILT_PARTS[name];
  writeFileSync(path.join(base, part.stamp), `${sourcesDigest(base, part.sources)}\n`);
}

function npmRun(args) {
  const result = spawnSync('npm', args, { stdio: 'inherit', cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

export function ensureBuilt({ forced = false } = {}) {
  const stale = forced ? Object.keys(BUILT_PARTS) : staleParts();
  for (const name of stale) {
    const part = BUILT_PARTS[name];
    console.log(`${part.label} (sources modifiées depuis la dernière construction)…`);
    npmRun(['run', 'build', '--workspace', part.workspace]); // its postbuild records the sources
  }
}
