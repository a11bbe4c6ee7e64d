import type { HourlyPoint } from '@bot/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The hour a timestamp falls in, as whole hours since 1970: the same on PGlite and on any PostgreSQL
 * whatever its time zone setting (`date_trunc` would follow the session's zone).
 */
export function hourOf(column: PgColumn): SQL<number> {
  return sql<number>`floor(extract(epoch from ${column}) / 3600)::integer`.mapWith(Number);
}

/** The start of the window of the last `days` days before `now` (the context's clock), on an hour boundary. */
export function windowStart(days: number, now: number): Date {
  return new Date(Math.floor((now - days * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS);
}

export function toHourlyPoints(rows: { hour: number; value: number | string | null }[]): HourlyPoint[] {
  return rows.map((row) => ({
    hour: new Date(row.hour * HOUR_MS).toISOString(),
    value: Number(row.value ?? 0),
  }));
}
