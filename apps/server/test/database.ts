import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../src/core/paths.ts';
import { type Database, openDatabase, PGLITE_EXTENSIONS, pgliteDir } from '../src/db/client.ts';

/**
 * Test databases come from a migrated template, built once per run: a PGlite dump file, or a
 * PostgreSQL template database when DATABASE_URL is set. Creating a fresh PGlite costs seconds;
 * loading the dump well under one.
 */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort()) {
    const full = path.join(MIGRATIONS_DIR, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(full));
  }
  return hash.digest('hex').slice(0, 12);
}

const pgliteTemplatePath = (): string =>
  path.join(os.tmpdir(), `bot-platform-template-${migrationsHash()}.tar.gz`);
const pgTemplateName = (): string => `bot_template_${migrationsHash()}`;

const testDatabaseUrl = (): string | undefined => process.env.DATABASE_URL || undefined;

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Builds the template if it is missing. Called by the global setup, and lazily by the harness. */
export async function ensureTemplate(): Promise<void> {
  const url = testDatabaseUrl();
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const name = pgTemplateName();
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount) return;
      const building = `${name}_build_${randomBytes(4).toString('hex')}`;
      await admin.query(`create database "${building}"`);
      const database = openDatabase({ databaseUrl: withDatabase(url, building) });
      await database.migrate();
      await database.close();
      try {
        await admin.query(`alter database "${building}" rename to "${name}"`);
      } catch {
        await admin.query(`drop database if exists "${building}"`); // another worker won the race
      }
    } finally {
      await admin.end();
    }
    return;
  }
  const file = pgliteTemplatePath();
  if (existsSync(file)) return;
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const database = openDatabase({ pglite: client });
  await database.migrate();
  const dump = await client.dumpDataDir('gzip');
  await database.close();
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, Buffer.from(await dump.arrayBuffer()));
  await rename(temporary, file);
}

/**
 * Writes a migrated embedded database into the empty folder `dataDir`, from the template: what the
 * server's first start would create there, in well under a second instead of seconds (benchmark
 * targets open such a folder as `npm start` opens its data folder).
 */
export async function writeTemplateDataDir(dataDir: string): Promise<void> {
  await ensureTemplate();
  const dump = await readFile(pgliteTemplatePath());
  const client = await PGlite.create(pgliteDir(dataDir), {
    loadDataDir: new Blob([dump]),
    extensions: PGLITE_EXTENSIONS,
  });
  await client.close();
}

/** A fresh, migrated database for one test server, dropped again by `dispose`. */
export async function createTestDatabase(): Promise<{ database: Database; dispose: () => Promise<void> }> {
  await ensureTemplate();
  const url = testDatabaseUrl();
  if (url) {
    const name = `bot_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${name}" template "${pgTemplateName()}"`);
    await admin.end();
    const database = openDatabase({ databaseUrl: withDatabase(url, name) });
    return {
      database,
      dispose: async () => {
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        // Let the app's closed pool finish saying goodbye before forcing what is left.
        for (let attempt = 0; attempt < 30; attempt++) {
          const { rows } = await dropper.query(
            'select count(*)::int as n from pg_stat_activity where datname = $1',
            [name],
          );
          if (rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await dropper.query(`drop database if exists "${name}" with (force)`);
        await dropper.end();
      },
    };
  }
  const dump = await readFile(pgliteTemplatePath());
  const client = new PGlite({ loadDataDir: new Blob([dump]), extensions: PGLITE_EXTENSIONS });
  return { database: openDatabase({ pglite: client }), dispose: async () => {} };
}
