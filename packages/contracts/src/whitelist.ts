import { z } from 'zod';
import { listQuery } from './admin.ts';

/** A game account name: what the game accepts, case kept, compared case-insensitively. */
export const gameAccountNameSchema = z
  .string()
  .trim()
  .min(2, 'Nom de compte trop court (2 caractères minimum).')
  .max(40, 'Nom de compte trop long (40 caractères maximum).')
  .regex(
    /^[\p{L}\p{N}][\p{L}\p{N} _.'-]*$/u,
    'Nom de compte invalide : lettres, chiffres, espace, _ . - et apostrophe.',
  );

export const whitelistEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
});
export type WhitelistEntry = z.infer<typeof whitelistEntrySchema>;

export const whitelistSlotsSchema = z.object({
  used: z.number().int(),
  /** null: no limit (administrators). */
  total: z.number().int().nullable(),
});
export type WhitelistSlots = z.infer<typeof whitelistSlotsSchema>;

export const myWhitelistAnswer = z.object({
  data: z.array(whitelistEntrySchema),
  slots: whitelistSlotsSchema,
});
export const whitelistEntryAnswer = z.object({ data: whitelistEntrySchema });
export const whitelistAddInput = z.strictObject({ name: gameAccountNameSchema });

export const adminWhitelistEntrySchema = whitelistEntrySchema.extend({
  user: z.object({ id: z.string(), username: z.string() }),
  createdBy: z.object({ id: z.string(), username: z.string() }).nullable(),
});
export type AdminWhitelistEntry = z.infer<typeof adminWhitelistEntrySchema>;

export const adminWhitelistQuery = listQuery.extend({ userId: z.string().uuid().optional() });
export type AdminWhitelistQuery = z.infer<typeof adminWhitelistQuery>;
export const adminWhitelistListAnswer = z.object({
  data: z.array(adminWhitelistEntrySchema),
  total: z.number().int(),
});
/** Staff add an account for a customer, named by id or username. */
export const adminWhitelistAddInput = z.strictObject({
  username: z.string().trim().min(1, 'Indiquez le nom d’utilisateur du client.').max(64),
  name: gameAccountNameSchema,
});
export type AdminWhitelistAddInput = z.infer<typeof adminWhitelistAddInput>;
export const adminWhitelistEntryAnswer = z.object({ data: adminWhitelistEntrySchema });
