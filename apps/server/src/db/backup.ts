import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pino from 'pino';
import { tightenTree } from '../core/private-files.ts';
import { PGLITE_EXTENSIONS, pgliteDir } from './client.ts';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * Backup and restore of the embedded database (PGlite in DATA_DIR/pglite) as one gzip tarball.
 * Both take the DATA_DIR lock, so they refuse to run while a server has the database open (a copy
 * of a live single-process database could be torn). PostgreSQL deployments use pg_dump instead.
 */
const silent = pino({ level: 'silent' });

/** Writes a consistent copy of the embedded database to `file`; answers its size in bytes. */
export async function backupEmbeddedDatabase(input: { dataDir: string; file: string }): Promise<number> {
  if (!existsSync(pgliteDir(input.dataDir))) throw new Error(`Aucune base embarquée dans ${input.dataDir}.`);
  const release = await lockDataDir(input.dataDir, silent);
  try {
    const database = await PGlite.create(pgliteDir(input.dataDir), { extensions: PGLITE_EXTENSIONS });
    const dump = await database.dumpDataDir('gzip');
    await database.close();
    // Opening it wrote files (pg_internal.init) 0666 whatever the umask (core/private-files.ts).
    await tightenTree(input.dataDir);
    const bytes = Buffer.from(await dump.arrayBuffer());
    // A backup holds every secret's sealed form and every user's data: its owner's only.
    await mkdir(path.dirname(input.file), { recursive: true, mode: 0o700 });
    await writeFile(`${input.file}.partial`, bytes, { mode: 0o600 });
    await rename(`${input.file}.partial`, input.file);
    return bytes.length;
  } finally {
    await release();
  }
}

/**
 * Replaces the embedded database with a backup. The current one is kept aside
 * (`pglite.before-restore-<date>`), never deleted; answers that folder (undefined when none).
 */
export async function restoreEmbeddedDatabase(input: {
  dataDir: string;
  file: string;
}): Promise<string | undefined> {
  const dump = new Blob([await readFile(input.file)]);
  const release = await lockDataDir(input.dataDir, silent);
  try {
    const target = pgliteDir(input.dataDir);
    let keptAside: string | undefined;
    if (existsSync(target)) {
      keptAside = `${target}.before-restore-${new Date().toISOString().replaceAll(':', '-')}`;
      await rename(target, keptAside);
    }
    const restored = await PGlite.create(target, { loadDataDir: dump, extensions: PGLITE_EXTENSIONS });
    await restored.query('select 1'); // the copy opens and answers
    await restored.close();
    await tightenTree(input.dataDir); // PGlite writes its files 0666 (core/private-files.ts)
    return keptAside;
  } finally {
    await release();
  }
}
