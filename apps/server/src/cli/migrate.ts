/**
 * `npm run migrate` (in the image: `node apps/server/dist/cli/migrate.js`): applies the SQL
 * migrations not applied yet and exits 0, nothing else. The compose deployment's one-shot `migrate`
 * service runs it before any node starts (docs/operations.md, "Deploying with compose"): the nodes
 * then find the schema up to date instead of racing to migrate it.
 */
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { runCli } from './run-cli.ts';

await runCli(async () => {
  const config = loadConfig();
  // The embedded database belongs to one process: a running server holds its folder.
  const release = config.databaseUrl
    ? undefined
    : await lockDataDir(config.dataDir, pino({ level: 'silent' }));
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeouts: config.databaseTimeouts,
  });
  try {
    const applied = await database.migrate();
    for (const name of applied) console.log(`migration appliquée : ${name}`);
    console.log(
      applied.length > 0
        ? `Base à jour : ${applied.length} migration(s) appliquée(s).`
        : 'Base à jour : aucune migration à appliquer.',
    );
  } finally {
    await database.close();
    await release?.();
  }
});
