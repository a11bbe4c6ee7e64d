import { Readable } from 'node:stream';
import type { ListQuery } from '@bot/contracts';
import { stringify } from 'csv-stringify/sync';
import { asc, count, desc, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
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
    throw new AppError('SORT_UNKNOWN', { details: { field, allowed: Object.keys(columns) } });
  }
  return descending ? desc(column) : asc(column);
}

/**
 * A page of a short list computed in memory (the 13 permissions, the releases), under the same
 * contract as the SQL lists: `q` matches the item's text case-insensitively, `sort` one of the
 * named keys (an unknown one is a 400), then `page` and `pageSize`.
 */
export function pageOfItems<T>(
  items: readonly T[],
  query: ListQuery,
  options: { text: (item: T) => string; sortKeys: Record<string, (item: T) => string | number> },
): { data: T[]; total: number } {
  const needle = query.q?.toLocaleLowerCase('fr');
  const matching = needle
    ? items.filter((item) => options.text(item).toLocaleLowerCase('fr').includes(needle))
    : [...items];
  if (query.sort) {
    const descending = query.sort.startsWith('-');
    const field = descending ? query.sort.slice(1) : query.sort;
    const key = Object.hasOwn(options.sortKeys, field) ? options.sortKeys[field] : undefined;
    if (!key) {
      throw new AppError('SORT_UNKNOWN', { details: { field, allowed: Object.keys(options.sortKeys) } });
    }
    const direction = descending ? -1 : 1;
    matching.sort((a, b) => direction * compareValues(key(a), key(b)));
  }
  const { limit, offset } = pageOf(query);
  return { data: matching.slice(offset, offset + limit), total: matching.length };
}

const compareValues = (a: string | number, b: string | number): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'fr');

/** The `total` of a list answer: exact, or flagged as the planner's estimate. */
export interface PageTotal {
  total: number;
  totalIsEstimate?: true;
}

/**
 * The total of a list page whose query returned `rows` rows at `offset` (page size `limit`).
 * Exact when the page tells it (a partly filled page is the last) or, with `exactUpTo`, when at most
 * that many rows match: they are counted through a LIMIT, so a broad filter never counts a large
 * table to the end. Above it, the planner's estimate (statistics, no rows read), flagged
 * `totalIsEstimate` and never below what the pages already show; when the statistics contradict the
 * count (stale: the planner expects no more than `exactUpTo` rows), a full count after all.
 * Without `exactUpTo`, always a count.
 */
export async function pageTotal(
  db: DbOrTx,
  input: {
    from: PgTable;
    where: SQL | undefined;
    offset: number;
    limit: number;
    rows: number;
    exactUpTo?: number;
  },
): Promise<PageTotal> {
  const { from, where, offset, limit, rows, exactUpTo } = input;
  if (rows < limit && (rows > 0 || offset === 0)) return { total: offset + rows };
  const counted = async (upTo?: number) => {
    const matching = db.select({ one: sql`1` }).from(from).where(where);
    const [row] = await db
      .select({ total: count() })
      .from((upTo === undefined ? matching : matching.limit(upTo + 1)).as('matching'));
    return row?.total ?? 0;
  };
  if (exactUpTo === undefined) return { total: await counted() };
  const capped = await counted(exactUpTo);
  if (capped <= exactUpTo) return { total: capped };
  const estimated = await plannedRows(db, db.select({ one: sql`1` }).from(from).where(where));
  if (estimated <= exactUpTo) return { total: await counted() };
  const atLeast = offset + rows + (rows === limit ? 1 : 0);
  return { total: Math.max(atLeast, estimated), totalIsEstimate: true };
}

/** The number of rows the planner expects a query to return (EXPLAIN: statistics, nothing read). */
async function plannedRows(db: DbOrTx, query: SQLWrapper): Promise<number> {
  const explained = await db.execute(sql`explain (format json) ${query}`);
  const plan = (explained as unknown as { rows: { 'QUERY PLAN': unknown }[] }).rows[0]?.['QUERY PLAN'];
  const [root] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: { 'Plan Rows': number } }];
  return Math.round(root.Plan['Plan Rows']);
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

/** Rows per written chunk when rows come one by one: one string per thousand rows, not one write per row. */
const CSV_CHUNK_ROWS = 1000;

/** Spreadsheets run cells starting with = + - @ tab or CR as formulas (CSV injection): exported as text. */
const asText = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * The separator French spreadsheet software expects: it reads `,` as the decimal comma and would put
 * every line in one column (docs/decisions/106).
 */
const CSV_SEPARATOR = ';';

/**
 * CSV lines of rows whose cells are all strings, as csv-stringify writes them with the `;` separator
 * (RFC 4180 otherwise: a cell with the separator, a quote or a line break is quoted, its quotes
 * doubled; lines end with \n), formula cells as text. A few times faster than csv-stringify's generic
 * path, which formats every other value.
 */
export function csvLines(rows: readonly (readonly string[])[]): string {
  let lines = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i += 1) {
      const cell = asText(row[i]!);
      const quoted = /[";\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
      lines += i === 0 ? quoted : `${CSV_SEPARATOR}${quoted}`;
    }
    lines += '\n';
  }
  return lines;
}

/** An instant as the API writes it (`Date.toISOString()`): the cells read as dates by a spreadsheet. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
/** Whose clock the dates of an export follow when the request names no valid zone. */
const CSV_DEFAULT_TIME_ZONE = 'Europe/Paris';

/**
 * "2026-11-26 08:30:00" in `timeZone`: the form spreadsheets (LibreOffice, Excel in French) read as a
 * date and time, in the viewer's zone (the web app sends its own, `tz`), without the ISO `T` and `Z`
 * they keep as text.
 */
export function spreadsheetDates(timeZone: string | undefined): (cell: string) => string {
  let zone = CSV_DEFAULT_TIME_ZONE;
  if (timeZone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone });
      zone = timeZone;
    } catch {
      // an unknown zone: the default one
    }
  }
  const format = new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (cell) => (ISO_INSTANT.test(cell) ? format.format(new Date(cell)) : cell);
}

const allStrings = (rows: unknown[][]): rows is string[][] =>
  rows.every((row) => row.every((cell) => typeof cell === 'string'));

/** Rows grouped `size` at a time. */
async function* chunksOf<T>(rows: AsyncIterable<T>, size: number): AsyncIterable<T[]> {
  let chunk: T[] = [];
  for await (const row of rows) {
    chunk.push(row);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * Streams a CSV export without a row cap: rows are fetched page by page (keyset or offset, the
 * caller decides) and written a page at a time as they come (`rows` one by one are grouped a
 * thousand at a time), so memory stays flat whatever the table size. UTF-8 with a BOM, a header line,
 * `;` between cells, instants as local dates (`spreadsheetDates`).
 */
export async function sendCsv(
  reply: FastifyReply,
  input: { filename: string; header: string[] } & (
    | { rows: AsyncIterable<unknown[]> }
    | { pages: AsyncIterable<unknown[][]> }
  ),
): Promise<FastifyReply> {
  // `tz` (every list query has it): the viewer's time zone, for the dates.
  const toDate = spreadsheetDates((reply.request.query as { tz?: string } | undefined)?.tz);
  const asCell = (value: string) => asText(toDate(value));
  const options = {
    columns: input.header,
    delimiter: CSV_SEPARATOR,
    cast: { string: asCell, date: (value: Date) => toDate(value.toISOString()) },
  };
  const format = (rows: unknown[][], first: boolean): string => {
    if (allStrings(rows)) {
      const cells = rows.map((row) => row.map(toDate));
      return `${first ? `\ufeff${csvLines([input.header])}` : ''}${csvLines(cells)}`;
    }
    return stringify(rows, first ? { ...options, header: true, bom: true } : options);
  };
  const pages = ('pages' in input ? input.pages : chunksOf(input.rows, CSV_CHUNK_ROWS))[
    Symbol.asyncIterator
  ]();
  // The first rows are read before anything is sent: a failing query (an outage) is then answered
  // by the error handler like any other request, not by a half-sent download.
  const first = await pages.next();
  reply.header('content-type', 'text/csv; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${input.filename}"`);
  async function* csv(): AsyncGenerator<string> {
    yield format(first.done ? [] : first.value, true);
    try {
      if (first.done) return;
      for (let next = await pages.next(); !next.done; next = await pages.next())
        yield format(next.value, false);
    } catch (error) {
      // Headers are gone: the only honest end is a cut download, and a log line for operators.
      reply.log.error({ err: error }, 'export CSV interrompu');
      throw error;
    }
  }
  return reply.send(Readable.from(csv(), { objectMode: false }));
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
 * Pages of a query read by key (`WHERE key > last key`), so each page costs the same however deep
 * the export goes (OFFSET re-reads every skipped row), one page ahead of the reader. Order by a
 * unique key, e.g. a UUID v7 id.
 */
export async function* keysetPages<T, K>(
  fetchPage: (after: K | undefined, limit: number) => Promise<T[]>,
  keyOf: (row: T) => K,
  size = 1000,
): AsyncIterable<T[]> {
  let next = fetchPage(undefined, size);
  for (;;) {
    const page = await next;
    const last = page.at(-1);
    const more = page.length === size && last !== undefined;
    if (more) {
      // The next page is asked for before this one is written: the database works while rows go out.
      next = fetchPage(keyOf(last), size);
      next.catch(() => {}); // awaited on the next turn; an export cut before it must not leave it unhandled
    }
    yield page;
    if (!more) return;
    await new Promise((resolve) => setImmediate(resolve)); // let the socket flush between pages
  }
}

/** The rows of `keysetPages`, one by one. */
export async function* inKeysetBatches<T, K>(
  fetchPage: (after: K | undefined, limit: number) => Promise<T[]>,
  keyOf: (row: T) => K,
  size = 1000,
): AsyncIterable<T> {
  for await (const page of keysetPages(fetchPage, keyOf, size)) yield* page;
}
