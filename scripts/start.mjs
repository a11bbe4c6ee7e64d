// `npm start`: builds what was never built (the web app, the compiled server) or what is older than
// its sources, then runs the server IN THIS PROCESS. The npm script `exec`s node, so SIGTERM and
// SIGINT sent to `npm start` reach the server itself (graceful shutdown), with nothing left behind.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => path.join(root, ...parts);

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

const forced = process.argv.includes('--build');
if (forced || !existsSync(at('apps/web/dist/index.html'))) {
  console.log('Construction de l’application web…');
  npmRun(['run', 'build', '--workspace', '@bot/web']);
}
const serverMain = at('apps/server/dist/main.js');
if (forced || isStale(serverMain, [at('apps/server/src'), at('packages/contracts/src')])) {
  console.log('Compilation du serveur…');
  npmRun(['run', 'build', '--workspace', '@bot/server']);
}
await import(pathToFileURL(serverMain).href);
