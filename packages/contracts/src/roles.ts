import { z } from 'zod';
import { listQuery } from './admin.ts';
import { isoDateTime } from './dates.ts';
import { PERMISSIONS } from './permissions.ts';

const permissionName = z.enum(PERMISSIONS);

/** A role as the admin pages show it. */
export const roleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(permissionName),
  memberCount: z.number().int(),
  createdAt: z.string(),
});
export type Role = z.infer<typeof roleSchema>;

export const roleMemberSchema = z.object({ id: z.string(), username: z.string(), email: z.string() });
export const roleDetailSchema = roleSchema.extend({ members: z.array(roleMemberSchema) });
export type RoleDetail = z.infer<typeof roleDetailSchema>;

export const roleInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(2, 'Le nom du rôle doit contenir au moins 2 caractères.')
    .max(40, 'Le nom du rôle doit contenir au plus 40 caractères.'),
  description: z.string().trim().max(300, 'La description doit contenir au plus 300 caractères.').default(''),
  permissions: z.array(permissionName).max(PERMISSIONS.length).default([]),
});
export type RoleInput = z.input<typeof roleInput>;
/** No defaults here: a field left out stays as it is. */
export const roleUpdateInput = z.strictObject({
  name: roleInput.shape.name.optional(),
  description: z.string().trim().max(300, 'La description doit contenir au plus 300 caractères.').optional(),
  permissions: z.array(permissionName).max(PERMISSIONS.length).optional(),
});
export type RoleUpdateInput = z.infer<typeof roleUpdateInput>;

export const rolesQuery = listQuery.extend({ permission: permissionName.optional() });
export type RolesQuery = z.infer<typeof rolesQuery>;

/** One permission with who holds it (the permissions admin page). */
export const permissionGrantSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  permission: permissionName,
  expiresAt: z.string().nullable(),
  source: z.enum(['manual', 'order']),
  sourceId: z.string().nullable(),
  createdAt: z.string(),
  isActive: z.boolean(),
});
export type PermissionGrant = z.infer<typeof permissionGrantSchema>;

export const permissionSummarySchema = z.object({
  name: permissionName,
  description: z.string(),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  activeGrantCount: z.number().int(),
});
export type PermissionSummary = z.infer<typeof permissionSummarySchema>;
export const permissionDetailSchema = permissionSummarySchema.extend({
  grants: z.array(permissionGrantSchema),
});
export type PermissionDetail = z.infer<typeof permissionDetailSchema>;
export const permissionParams = z.object({ name: permissionName });
export const grantParams = z.object({ id: z.string().uuid('Identifiant invalide.') });

/** A date in the future, or null for a grant without end. */
const grantEnd = isoDateTime('Date de fin invalide.')
  .nullable()
  .refine(
    (value) => value === null || Date.parse(value) > Date.now(),
    'La date de fin doit être dans le futur.',
  );

export const grantInput = z.strictObject({ permission: permissionName, expiresAt: grantEnd });
export type GrantInput = z.infer<typeof grantInput>;
export const grantToUserInput = z.strictObject({
  username: z.string().trim().min(1, "Le nom d'utilisateur est requis.").max(254),
  expiresAt: grantEnd,
});
export type GrantToUserInput = z.infer<typeof grantToUserInput>;
export const grantUpdateInput = z.strictObject({ expiresAt: grantEnd });
export type GrantUpdateInput = z.infer<typeof grantUpdateInput>;
