import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { Gauge } from 'prom-client';
import type { Metrics } from '../core/metrics.ts';
import { MIGRATIONS_DIR } from '../core/paths.ts';

/** One type for both engines: services never know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT>;
type Tx = PgTransaction<
  PgQueryResultHKT,
  Record<string, never>,
  ExtractTablesWithRelations<Record<string, never>>
>;
/** Service functions accept either, so they can join a caller's transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL pool figures (PGlite has no pool). */
  pool?: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;
  /** Applies the migrations not applied yet; answers their names, oldest first (logged at start). */
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Extensions the migrations use (pg_trgm: trigram indexes for the admin lists' ILIKE searches).
 * PostgreSQL has them from its contrib package; PGlite loads them when it opens, so every PGlite
 * opened on our data passes these (an index using an extension it lacks fails every write).
 */
export const PGLITE_EXTENSIONS = { pg_trgm } satisfies PGliteOptions['extensions'];

/** PostgreSQL when a URL is given, else PGlite in `dataDir/pglite` (or an existing PGlite instance). */
export function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  pglite?: PGlite;
  onIdleError?: (error: Error) => void;
  timeouts?: { connectTimeoutMs?: number; statementTimeoutMs?: number };
}): Database {
  if (options.databaseUrl) {
    const { connectTimeoutMs = 3_000, statementTimeoutMs = 10_000 } = options.timeouts ?? {};
    // Without timeouts a request waits forever for a database that is gone: fail fast, answer 503.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: connectTimeoutMs,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + 1_000,
    });
    // An idle connection killed by the server (restart, failover, admin command) is an 'error' event
    // of the pool: without a listener it would crash the process. The pool replaces the connection;
    // queries in flight fail on their own and are answered as errors.
    pool.on('error', (error) => options.onIdleError?.(error));
    // A connection checked out by a transaction, between two statements, is not the pool's to watch:
    // its 'error' (the server stopped, `pg_ctl -m fast`) would crash the process. Its transaction
    // fails on its next statement and answers 503; the pool drops the broken connection on release.
    pool.on('connect', (client) => {
      client.on('error', (error) => options.onIdleError?.(error));
    });
    const db = drizzleNodePg(pool) as unknown as Db;
    return {
      db,
      engine: 'postgres',
      pool,
      migrate: () =>
        migrateLogged(db, () => migrateNodePg(db as never, { migrationsFolder: MIGRATIONS_DIR })),
      close: () => pool.end(),
    };
  }
  const client = options.pglite ?? createPglite(options.dataDir);
  const db = drizzlePglite(client) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    migrate: () => migrateLogged(db, () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR })),
    close: () => client.close(),
  };
}

/**
 * Runs drizzle's migrator and answers which migrations it applied: those of the journal newer than
 * the last one the database recorded (drizzle's own rule), read before it runs. An upgrade that
 * changes the schema says so in the log instead of silently.
 */
async function migrateLogged(db: Db, migrate: () => Promise<void>): Promise<string[]> {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const last = await lastAppliedMigration(db);
  await migrate();
  return journal.entries.filter((entry) => entry.when > last).map((entry) => entry.tag);
}

/** When the last applied migration was created (drizzle's bookkeeping table); 0 on a new database. */
async function lastAppliedMigration(db: Db): Promise<number> {
  try {
    const result = (await db.execute(
      sql`select max(created_at) as last from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { last: string | number | null }[] };
    return Number(result.rows[0]?.last ?? 0);
  } catch {
    return 0; // no bookkeeping table yet: every migration is new
  }
}

/** Where the embedded database lives inside DATA_DIR. */
export const pgliteDir = (dataDir: string): string => path.join(dataDir, 'pglite');

function createPglite(dataDir: string | undefined): PGlite {
  if (!dataDir) return new PGlite({ extensions: PGLITE_EXTENSIONS });
  const dir = pgliteDir(dataDir);
  mkdirSync(dir, { recursive: true });
  // Durable by default: each commit is written to DATA_DIR before the query answers (docs/operations.md, Durability).
  return new PGlite(dir, { relaxedDurability: false, extensions: PGLITE_EXTENSIONS });
}

/** `db_pool_connections{state}`: open, idle and waiting connections of the PostgreSQL pool. */
export function observeDatabasePool(metrics: Metrics, database: Database): void {
  const { pool } = database;
  if (!pool) return;
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting clients)',
    labelNames: ['state'],
    registers: [metrics.registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}
