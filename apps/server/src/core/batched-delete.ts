import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';

/** Rows one statement deletes: the embedded database blocks the event loop while a statement runs. */
const PRUNE_BATCH_ROWS = 1_000;
/** Statements one run makes at most: a backlog (a retention just shortened) goes over several runs. */
const PRUNE_MAX_BATCHES = 50;

const DAY_MS = 86_400_000;

/** The moment `days` days before `now`: rows older than it are past their retention. */
export function retentionStart(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/**
 * Deletes the rows of `table` matching `where`, `PRUNE_BATCH_ROWS` per statement (by `ctid`, so a
 * table without a single-column key is handled the same), letting other work through between
 * statements; answers how many went. The caller passes only its own module's table.
 */
export async function deleteInBatches(db: DbOrTx, table: PgTable, where: SQL): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < PRUNE_MAX_BATCHES; batch += 1) {
    if (batch > 0) await new Promise((resolve) => setImmediate(resolve));
    const result = await db.execute(sql`
      delete from ${table}
      where ctid = any(array(select ctid from ${table} where ${where} limit ${PRUNE_BATCH_ROWS}))
      returning 1`);
    const deleted = (result as unknown as { rows: unknown[] }).rows.length;
    total += deleted;
    if (deleted < PRUNE_BATCH_ROWS) break;
  }
  return total;
}
