import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackage } from '../../../../deploy/local-cluster.ts';

/**
 * The cluster tests need Redis and nginx (Debian packages, installed when missing) and the compiled
 * server, which the node-kill test runs as real processes behind nginx.
 */
export default function setup(): void {
  ensureDebianPackage('/usr/bin/redis-server', 'redis-server');
  ensureDebianPackage('/usr/sbin/nginx', 'nginx-light');
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
}
