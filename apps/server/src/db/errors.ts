/** True when a query failed on the given unique index or constraint (both engines, wrapped or not). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const candidate = current as { code?: string; constraint?: string; message?: string };
    if (candidate.constraint === constraint) return true;
    if (candidate.code === '23505' && candidate.message?.includes(constraint)) return true;
    if (candidate.message?.includes(`unique constraint "${constraint}"`)) return true;
  }
  return false;
}

/** Network failures and PostgreSQL answers that mean "the database cannot serve right now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '57014', // query_canceled: the statement timeout
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|connect ECONNREFUSED/i;

/** True when a query failed because the database is unreachable or overloaded (answer 503, retry). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const candidate = current as { code?: string; message?: string };
    if (candidate.code && UNAVAILABLE_CODES.has(candidate.code)) return true;
    if (candidate.message && UNAVAILABLE_MESSAGES.test(candidate.message)) return true;
  }
  return false;
}

/**
 * True when a write failed because the disk is full: PostgreSQL's `disk_full` (SQLSTATE 53100,
 * which PGlite raises too: "could not extend file … No space left on device") or the system's
 * ENOSPC. Not corruption: once space is freed the writes go through (docs/operations.md).
 */
export function isDiskFull(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const candidate = current as { code?: string; message?: string };
    if (candidate.code === '53100' || candidate.code === 'ENOSPC') return true;
    if (candidate.message && /No space left on device|ENOSPC/i.test(candidate.message)) return true;
  }
  return false;
}
