/**
 * `npm run keys:rotate -- --root-key FILE [--purpose lease|release|none] [--days N]`: signs the next
 * version of the key set with the offline root key (docs/licensing.md, decision 912). By default the
 * lease key is rotated: its standby (already trusted by every agent) takes over and a new standby is
 * made; `--purpose release` rotates the key of release manifests, `--purpose none` only signs a
 * fresh set (a longer expiry, a standby after a revocation). The root key is read for this one
 * signature and never stored. With the embedded database, stop the server first (one process at a
 * time); with PostgreSQL, run it beside the running nodes.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { KEY_SET_LIFETIME_DAYS, SIGNING_KEY_PURPOSES, type SigningKeyPurpose } from '@bot/contracts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { loadRootKey, signKeySet } from '../modules/licensing/index.ts';
import { runCli } from './run-cli.ts';

await runCli(async () => {
  const { values } = parseArgs({
    options: {
      'root-key': { type: 'string' },
      purpose: { type: 'string', default: 'lease' },
      release: { type: 'boolean', default: false },
      days: { type: 'string', default: String(KEY_SET_LIFETIME_DAYS) },
    },
  });
  if (!values['root-key'])
    throw new Error(
      'Indiquez la clé racine : npm run keys:rotate -- --root-key /chemin/vers/racine.jwk (créée par npm run keys:root).',
    );
  const purpose = values.release ? 'release' : values.purpose;
  if (purpose !== 'none' && !(SIGNING_KEY_PURPOSES as readonly string[]).includes(purpose))
    throw new Error('--purpose : lease, release ou none.');
  const days = Number(values.days);
  if (!(days >= 1 && days <= 3650)) throw new Error('--days : entre 1 et 3650 jours.');
  const root = await loadRootKey(path.resolve(values['root-key']));
  const app = await buildApp({ config: { ...loadConfig(), logLevel: 'warn' }, rootKey: root });
  try {
    const set = await signKeySet(app.ctx, {
      root,
      actor: { id: null, username: 'cli:keys:rotate', ip: null },
      days,
      ...(purpose === 'none' ? {} : { rotate: purpose as SigningKeyPurpose }),
    });
    const what =
      purpose === 'none'
        ? 'sans rotation'
        : `clé ${purpose === 'release' ? 'des manifestes' : 'des baux'} renouvelée`;
    console.log(
      `Jeu de clés version ${set.version} signé par la racine ${root.kid} (${what}), valable jusqu’au ${set.expiresAt.toISOString()}.`,
    );
  } finally {
    await app.close();
  }
});
