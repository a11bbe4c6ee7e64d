// `npm start`: builds the web app when it has never been built (or when asked with --build),
// then starts the server, which hosts it on the same origin as the API.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const webIndex = new URL('../apps/web/dist/index.html', import.meta.url);
const run = (args) => {
  const result = spawnSync('npm', args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!existsSync(webIndex) || process.argv.includes('--build')) {
  console.log('Construction de l’application web (première fois)…');
  run(['run', 'build', '--workspace', '@bot/web']);
}
run(['run', 'start', '--workspace', '@bot/server']);
