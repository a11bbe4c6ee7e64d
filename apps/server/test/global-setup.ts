import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureTemplate } from './database.ts';

/** Builds the migrated template database once for the whole run, and the compiled server that
 * process tests start (`npm start` would otherwise compile it in the middle of a test). */
export default async function setup(): Promise<void> {
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
  await ensureTemplate();
}
