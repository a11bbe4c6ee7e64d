import { z } from 'zod';

/**
 * The instants a date given to the API may name: 1970 to 9999 (UTC). PostgreSQL holds no year 0
 * and a `Date` past 9999 prints as `+010000-…`, which PostgreSQL refuses: either reached the
 * query and answered 500. Within these bounds both hold every value, and so does a person's intent.
 */
export const DATE_BOUNDS = {
  min: Date.UTC(1970, 0, 1),
  max: Date.UTC(10_000, 0, 1) - 1,
} as const;

export const DATE_OUT_OF_BOUNDS = 'Date hors limites : choisissez une date entre 1970 et 9999.';

/**
 * An ISO 8601 date and time with its offset, within `DATE_BOUNDS` (docs/security.md, "Dates").
 * `message` names what the field is when the text is no date at all.
 */
export function isoDateTime(message = 'Date invalide.') {
  return z.iso.datetime({ offset: true, message }).refine((value) => {
    const instant = Date.parse(value);
    return instant >= DATE_BOUNDS.min && instant <= DATE_BOUNDS.max;
  }, DATE_OUT_OF_BOUNDS);
}
