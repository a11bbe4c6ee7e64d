import { customType } from 'drizzle-orm/pg-core';

/**
 * A `jsonb` column that reads back exactly what was written. Both drivers (pg and PGlite) already
 * parse `jsonb` into JavaScript values; drizzle's own `jsonb` parses any string it receives a second
 * time, so a stored string that looks like JSON ("2026", "true", "null", "[]") came back as another
 * type. Every JSON column of the schema uses this one.
 */
export const json = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
});
