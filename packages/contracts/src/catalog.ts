import { z } from 'zod';
import { listQuery } from './admin.ts';
import { BOT_PERMISSIONS } from './permissions.ts';

export const CURRENCIES = ['EUR'] as const;
export const currencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof currencySchema>;

/** A package as everyone sees it (marketplace and admin). */
export const packageSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  priceCents: z.number().int(),
  currency: currencySchema,
  durationDays: z.number().int(),
  grants: z.array(z.enum(BOT_PERMISSIONS)),
  whitelistSlots: z.number().int(),
  sortOrder: z.number().int(),
  active: z.boolean(),
  retiredAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Package = z.infer<typeof packageSchema>;

/** Admin: create or fully describe a package. */
export const packageInput = z.strictObject({
  name: z.string().trim().min(2, 'Nom trop court.').max(80),
  description: z.string().trim().max(2000).default(''),
  priceCents: z.number().int().min(0).max(100_000_000),
  currency: currencySchema.default('EUR'),
  durationDays: z.number().int().min(1).max(3650),
  grants: z
    .array(z.enum(BOT_PERMISSIONS))
    .max(BOT_PERMISSIONS.length)
    .refine((list) => new Set(list).size === list.length, 'Permission en double.'),
  whitelistSlots: z.number().int().min(0).max(1000),
  active: z.boolean().default(true),
});
export type PackageInput = z.input<typeof packageInput>;

/** Admin: change some fields; `retired: false` brings a retired package back (inactive). */
export const packageUpdateInput = z.strictObject({
  name: z.string().trim().min(2, 'Nom trop court.').max(80).optional(),
  description: z.string().trim().max(2000).optional(),
  priceCents: z.number().int().min(0).max(100_000_000).optional(),
  currency: currencySchema.optional(),
  durationDays: z.number().int().min(1).max(3650).optional(),
  grants: z
    .array(z.enum(BOT_PERMISSIONS))
    .max(BOT_PERMISSIONS.length)
    .refine((list) => new Set(list).size === list.length, 'Permission en double.')
    .optional(),
  whitelistSlots: z.number().int().min(0).max(1000).optional(),
  active: z.boolean().optional(),
  retired: z.boolean().optional(),
});
export type PackageUpdateInput = z.infer<typeof packageUpdateInput>;

/** Admin: the new order of packages, every id once, first shown first. */
export const packageReorderInput = z.strictObject({
  ids: z.array(z.string().uuid('Identifiant invalide.')).min(1).max(500),
});

export const packageListQuery = listQuery.extend({
  status: z.enum(['active', 'inactive', 'retired', 'all']).default('all'),
});
export type PackageListQuery = z.infer<typeof packageListQuery>;

export const packagesAnswer = z.object({ data: z.array(packageSchema) });
export const packageListAnswer = z.object({ data: z.array(packageSchema), total: z.number().int() });
export const packageAnswer = z.object({ data: packageSchema });

/** "12,50 €" */
export function formatPrice(cents: number, currency: Currency | string = 'EUR'): string {
  return new Intl.NumberFormat('fr-FR', { style: 'currency', currency }).format(cents / 100);
}
