import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import { deleteInBatches } from './batched-delete.ts';

/**
 * What the outboxes share (mail, decision 701; Discord, decision 902): a table with `id`,
 * `attempts`, `last_error`, `next_attempt_at`, `locked_until`, `sent_at`, `failed_at`; rows claimed
 * with `FOR UPDATE SKIP LOCKED` so that N nodes never send one twice; failures retried with
 * exponential backoff until given up, the row kept visible.
 */
export interface OutboxOptions {
  table: PgTable;
  /** Rows one claim takes. */
  batchSize: number;
  /** How long a claimed row stays with the worker that claimed it (another node skips it meanwhile). */
  claimSeconds: number;
}

/** Claims the due rows and answers the `returning` columns of each. */
export async function claimDueRows<Row>(db: DbOrTx, outbox: OutboxOptions, returning: SQL): Promise<Row[]> {
  const { table, batchSize, claimSeconds } = outbox;
  const claimed = await db.execute(sql`
    update ${table} set locked_until = now() + make_interval(secs => ${claimSeconds})
    where id in (
      select id from ${table}
      where sent_at is null and failed_at is null and next_attempt_at <= now()
        and (locked_until is null or locked_until < now())
      order by next_attempt_at
      limit ${batchSize}
      for update skip locked
    )
    returning ${returning}`);
  return (claimed as unknown as { rows: Row[] }).rows;
}

/**
 * Deletes the rows sent or given up before `before` (the retention loop, docs/capacity.md). A row
 * still waiting (neither sent nor given up) is never deleted, however old: it has yet to leave.
 */
export function pruneFinishedRows(db: DbOrTx, table: PgTable, before: Date): Promise<number> {
  const at = before.toISOString();
  return deleteInBatches(db, table, sql`(sent_at < ${at} or failed_at < ${at})`);
}

/** `base`, then twice as long after each failure, at most an hour. */
export function backoffMs(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** (attempts - 1), 3_600_000);
}

/**
 * Records a failed attempt of a claimed row: when to try again, or given up. Only while the row is
 * still claimed and unsent (a late worker does not undo another's success).
 */
export async function recordFailedAttempt(
  db: DbOrTx,
  table: PgTable,
  input: { id: string; attempts: number; error: string; delayMs: number; isGivingUp: boolean },
): Promise<void> {
  await db.execute(sql`
    update ${table} set
      attempts = ${input.attempts},
      last_error = ${input.error.slice(0, 500)},
      next_attempt_at = ${new Date(Date.now() + input.delayMs).toISOString()},
      failed_at = ${input.isGivingUp ? new Date().toISOString() : null},
      locked_until = null
    where id = ${input.id} and sent_at is null and locked_until is not null`);
}

/**
 * A drain that sends batches until one comes back short. Asked while it runs, it runs once more
 * after (a row queued meanwhile is not left for the next poll); never two at a time.
 */
export function coalescedDrain(sendBatch: () => Promise<number>, batchSize: number): () => Promise<void> {
  let isDraining = false;
  let isDrainAsked = false;
  return async () => {
    if (isDraining) {
      isDrainAsked = true;
      return;
    }
    isDraining = true;
    try {
      do {
        isDrainAsked = false;
        while ((await sendBatch()) === batchSize) {}
      } while (isDrainAsked);
    } finally {
      isDraining = false;
    }
  };
}
