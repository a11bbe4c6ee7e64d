import { z } from 'zod';

/** Query of every admin list: `?page=&pageSize=&sort=&q=` plus resource filters. */
export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
  sort: z
    .string()
    .regex(/^-?[A-Za-z]+$/, 'Tri invalide.')
    .optional(),
  q: z.string().trim().max(200).optional(),
  /** The viewer's IANA time zone: CSV exports write their dates in it. */
  tz: z.string().trim().max(64).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export function listAnswer<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    total: z.number().int(),
    /**
     * Present, and true, when `total` is the database's estimate rather than a count: a text search
     * matching more than 1,000 users, an audit filter matching more than 10,000 entries
     * (docs/decisions/405-back-office-at-size.md). Absent when `total` is exact.
     */
    totalIsEstimate: z.literal(true).optional(),
  });
}
export function dataAnswer<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}
export const idParams = z.object({ id: z.string().uuid('Identifiant invalide.') });

/**
 * Charts of the admin dashboard: one point per hour (its start, ISO, UTC) over the last `days` days,
 * hours without anything left out. The browser groups hours into days of its own time zone.
 */
export const hourlySeriesQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(30),
});
export const hourlyPointSchema = z.object({ hour: z.string(), value: z.number() });
export const hourlySeriesAnswer = z.object({ data: z.array(hourlyPointSchema) });
export type HourlyPoint = z.infer<typeof hourlyPointSchema>;
