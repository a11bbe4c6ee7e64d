import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The node-kill test runs the compiled server as real processes behind nginx. */
export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
}
