// Builds what was never built (the web app, the compiled server) or what is older than its sources.
// Used by `npm start` and `npm run cluster`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => path.join(root, ...parts);
/** The compiled server every node runs. */
export const serverMain = at('apps/server/dist/main.js');

function newestMtime(target) {
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(target).reduce(
    (newest, name) => Math.max(newest, newestMtime(path.join(target, name))),
    info.mtimeMs,
  );
}

/** True when `output` is missing or older than any of `sources`. */
function isStale(output, sources) {
  return !existsSync(output) || Math.max(...sources.map(newestMtime)) > statSync(output).mtimeMs;
}

function npmRun(args) {
  const result = spawnSync('npm', args, { stdio: 'inherit', cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

export function ensureBuilt({ forced = false } = {}) {
  if (forced || !existsSync(at('apps/web/dist/index.html'))) {
    console.log('Construction de l’application web…');
    npmRun(['run', 'build', '--workspace', '@bot/web']);
  }
  if (forced || isStale(serverMain, [at('apps/server/src'), at('packages/contracts/src')])) {
    console.log('Compilation du serveur…');
    npmRun(['run', 'build', '--workspace', '@bot/server']);
  }
}
