import type { ListQuery } from '@bot/contracts';
import { stringify } from 'csv-stringify';
import { asc, desc, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { AppError } from './errors.ts';

/** LIMIT/OFFSET of a list page. */
export function pageOf(query: ListQuery): { limit: number; offset: number } {
  return { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
}

/**
 * ORDER BY from `sort=field` or `sort=-field` (descending), limited to the listed columns; an
 * unknown field is a 400, never a SQL error.
 */
export function orderOf(
  sort: string | undefined,
  columns: Record<string, PgColumn | SQL>,
  fallback: SQL,
): SQL {
  if (!sort) return fallback;
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  // Own keys only: `sort=constructor` must not reach an inherited property.
  const column = Object.hasOwn(columns, field) ? columns[field] : undefined;
  if (!column) {
    throw new AppError('VALIDATION_ERROR', {
      message: `Tri impossible sur « ${field} ». Champs possibles : ${Object.keys(columns).join(', ')}.`,
    });
  }
  return descending ? desc(column) : asc(column);
}

/** `%q%` for ILIKE, with the user's wildcards escaped. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The documented answer of a CSV export (the body is streamed, never serialised from JSON). */
export const csvAnswer = {
  200: {
    description: 'Fichier CSV (UTF-8), une ligne d’en-tête puis une ligne par élément',
    content: { 'text/csv': { schema: z.string() } },
  },
};

/**
 * Streams a CSV export without a row cap: rows are fetched page by page (keyset or offset, the
 * caller decides) and written as they come, so memory stays flat whatever the table size.
 */
export async function sendCsv(
  reply: FastifyReply,
  input: { filename: string; header: string[]; rows: AsyncIterable<unknown[]> },
): Promise<FastifyReply> {
  const csv = stringify({
    header: true,
    columns: input.header,
    bom: true,
    // Spreadsheets run cells starting with = + - @ as formulas (CSV injection): quote them as text.
    cast: { string: (value) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value) },
  });
  // The first page is read before anything is sent: a failing query (an outage) is then answered
  // by the error handler like any other request, not by a half-sent download.
  const rows = input.rows[Symbol.asyncIterator]();
  const first = await rows.next();
  reply.header('content-type', 'text/csv; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${input.filename}"`);
  void (async () => {
    try {
      for (let next = first; !next.done; next = await rows.next()) {
        if (!csv.write(next.value)) await new Promise((resolve) => csv.once('drain', resolve));
      }
      csv.end();
    } catch (error) {
      // Headers are gone: the only honest end is a cut download, and a log line for operators.
      reply.log.error({ err: error }, 'export CSV interrompu');
      csv.destroy(error as Error);
    }
  })();
  return reply.send(csv);
}

/** Pages through a query in batches: `for await (const row of inBatches((offset, limit) => ...))`. */
export async function* inBatches<T>(
  fetchPage: (offset: number, limit: number) => Promise<T[]>,
  size = 1000,
): AsyncIterable<T> {
  for (let offset = 0; ; offset += size) {
    const page = await fetchPage(offset, size);
    yield* page;
    if (page.length < size) return;
    // Let the socket flush between pages: PGlite answers without an I/O turn, which would hold
    // the whole export in memory until the last page.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Pages through a query by key (`WHERE key > last key`), so each page costs the same however deep
 * the export goes (OFFSET re-reads every skipped row). Order by a unique key, e.g. a UUID v7 id.
 */
export async function* inKeysetBatches<T, K>(
  fetchPage: (after: K | undefined, limit: number) => Promise<T[]>,
  keyOf: (row: T) => K,
  size = 1000,
): AsyncIterable<T> {
  let after: K | undefined;
  for (;;) {
    const page = await fetchPage(after, size);
    yield* page;
    const last = page.at(-1);
    if (page.length < size || last === undefined) return;
    after = keyOf(last);
    await new Promise((resolve) => setImmediate(resolve)); // let the socket flush between pages
  }
}
