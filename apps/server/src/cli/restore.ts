/**
 * `npm run restore -- fichier.tar.gz`: replaces the embedded database with a backup (stop the server
 * first). The database it replaces is kept aside in DATA_DIR, never deleted.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { restoreEmbeddedDatabase } from '../db/backup.ts';
import { runCli } from './run-cli.ts';

await runCli(async () => {
  const config = loadConfig();
  if (config.databaseUrl)
    throw new Error(
      'DATABASE_URL est défini : restaurez PostgreSQL avec pg_restore (voir docs/operations.md).',
    );
  const { positionals } = parseArgs({ allowPositionals: true });
  const file = positionals[0];
  if (!file)
    throw new Error('Indiquez le fichier de sauvegarde : npm run restore -- chemin/vers/sauvegarde.tar.gz');
  const keptAside = await restoreEmbeddedDatabase({ dataDir: config.dataDir, file: path.resolve(file) });
  console.log(`Base restaurée depuis ${path.resolve(file)}.`);
  if (keptAside) console.log(`L’ancienne base est conservée dans ${keptAside}.`);
});
