/**
 * `npm run keys:master-rotate [-- --out nouvelle.master-key]`: seals every secret of the database
 * (bot access keys, TOTP secrets, signing keys) under a new master key, in one transaction
 * (docs/operations.md, "Master key"). Stop the server first (every node, with PostgreSQL: a running
 * node would go on sealing with the old key). The new key is written 0600 to `--out`; with the
 * embedded default key file and no `--out`, it replaces that file and the old one is kept aside.
 */
import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { loadMasterKey, newMasterKeyText, parseMasterKey } from '../core/master-key.ts';
import { tightenTree } from '../core/private-files.ts';
import { openDatabase } from '../db/client.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { rotateMasterKey } from '../secrets-at-rest.ts';
import { runCli } from './run-cli.ts';

await runCli(async () => {
  const config = loadConfig();
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const source = config.masterKey;
  const replacesDefault = !values.out && source.kind === 'file' && source.createIfMissing;
  if (!values.out && !replacesDefault)
    throw new Error(
      'Indiquez où écrire la nouvelle clé maîtresse : npm run keys:master-rotate -- --out /chemin/hors/DATA_DIR/nouvelle.master-key',
    );
  const target = path.resolve(values.out ?? (source.kind === 'file' ? source.path : ''));
  const dataDir = path.resolve(config.dataDir);
  if (target === dataDir || target.startsWith(`${dataDir}${path.sep}`))
    throw new Error(
      `Refusé : ${target} est dans DATA_DIR (${dataDir}). La clé maîtresse ne vit jamais avec les données qu’elle scelle : choisissez un fichier ailleurs.`,
    );
  if (!replacesDefault && existsSync(target))
    throw new Error(`Refusé : ${target} existe déjà (choisissez un nouveau fichier).`);

  const log = pino({ level: 'silent' });
  const oldMasterKey = loadMasterKey(source);
  const newText = newMasterKeyText();
  const newMasterKey = parseMasterKey(newText)!;
  // Written before the database changes: whatever happens next, the key that opens it is on disk.
  const pending = replacesDefault ? `${target}.new` : target;
  await writeFile(pending, newText, { mode: 0o600, flag: 'wx' });

  const releaseDataDir = config.databaseUrl ? undefined : await lockDataDir(config.dataDir, log);
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeouts: config.databaseTimeouts,
  });
  let counts: Record<string, number>;
  try {
    await database.migrate();
    counts = await rotateMasterKey(database, { oldMasterKey, newMasterKey, source, log });
  } finally {
    await database.close();
    await tightenTree(config.dataDir);
    await releaseDataDir?.();
  }
  const summary = `${counts.botKeys} clés d’accès de bots, ${counts.twoFactorSecrets} secrets de double authentification, ${counts.signingKeys} clés de signature`;
  if (replacesDefault) {
    const aside = `${target}.avant-rotation-${new Date().toISOString().replaceAll(':', '-').replace(/\..*/, '')}`;
    await rename(target, aside);
    await rename(pending, target);
    console.log(
      `Secrets re-scellés sous une nouvelle clé maîtresse (${summary}).\nNouvelle clé : ${target} (sauvegardez-la à part des données).\nL’ancienne est gardée dans ${aside} : détruisez-la, et ses copies, une fois le serveur redémarré.`,
    );
    return;
  }
  console.log(
    `Secrets re-scellés sous une nouvelle clé maîtresse (${summary}).\nNouvelle clé : ${target}. Avant de redémarrer, donnez-la à chaque nœud (MASTER_KEY_FILE=${target}, ou son contenu dans MASTER_KEY) ; l’ancienne ne sert plus : détruisez-la, et ses copies, une fois les nœuds redémarrés.`,
  );
});
