/**
 * `npm run keys:rotate`: puts a new lease signing key in service (docs/licensing.md). New leases
 * are signed with it; the previous key keeps verifying the leases it signed until they expire.
 * `npm run keys:rotate -- --release` rotates the key that signs release manifests instead.
 * With the embedded database, stop the server first (one process at a time); with PostgreSQL, run
 * it beside the running nodes: they use the new key for their next lease.
 */
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { rotateSigningKey } from '../modules/licensing/signing-keys.service.ts';
import { runCli } from './run-cli.ts';

await runCli(async () => {
  const app = await buildApp({ config: { ...loadConfig(), logLevel: 'warn' } });
  try {
    const purpose = process.argv.includes('--release') ? 'release' : 'lease';
    const key = await rotateSigningKey(app.ctx, { id: null, username: 'cli:keys:rotate', ip: null }, purpose);
    const what = purpose === 'release' ? 'des manifestes des versions' : 'des baux';
    console.log(`Nouvelle clé de signature ${what} en service : ${key.kid}`);
  } finally {
    await app.close();
  }
});
