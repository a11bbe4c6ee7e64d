/**
 * `npm run backup [-- --out fichier.tar.gz]`: a copy of the embedded database (stop the server
 * first: the DATA_DIR lock refuses a live copy). Default file: DATA_DIR/backups/<date>.tar.gz.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { backupEmbeddedDatabase } from '../db/backup.ts';
import { runCli } from './run-cli.ts';

await runCli(async () => {
  const config = loadConfig();
  if (config.databaseUrl)
    throw new Error(
      'DATABASE_URL est défini : sauvegardez PostgreSQL avec pg_dump (voir docs/operations.md).',
    );
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const stamp = new Date().toISOString().replaceAll(':', '-').replace(/\..*/, '');
  const file = path.resolve(
    values.out ?? path.join(config.dataDir, 'backups', `bot-platform-${stamp}.tar.gz`),
  );
  const bytes = await backupEmbeddedDatabase({ dataDir: config.dataDir, file });
  console.log(`Sauvegarde écrite : ${file} (${Math.round(bytes / 1024)} Kio)`);
});
