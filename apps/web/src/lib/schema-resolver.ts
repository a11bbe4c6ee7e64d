import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/** What we need of a zod schema (the contracts' schemas satisfy it). */
export interface SafeParser<T> {
  safeParse(
    data: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string; code?: string }[] } };
}

/**
 * react-hook-form resolver over a contracts zod schema. A dozen lines instead of @hookform/resolvers,
 * whose zod adapter also pulls zod 3 compatibility code into the public bundle (docs/decisions/103).
 * Our forms are flat, so the first issue of each top-level field is enough.
 */
export function schemaResolver<T extends FieldValues>(schema: SafeParser<T>): Resolver<T> {
  return async (values) => {
    const result = schema.safeParse(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (key && !errors[key]) errors[key] = { type: issue.code ?? 'validation', message: issue.message };
    }
    return { values: {}, errors: errors as unknown as FieldErrors<T> };
  };
}
