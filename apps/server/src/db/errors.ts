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
