import { z } from 'zod';
import { listQuery } from './admin.ts';
import { roleRef } from './auth.ts';
import { PERMISSIONS } from './permissions.ts';
import { permissionGrantSchema } from './roles.ts';

/** Filters of the admin user list. */
export const USER_STATUSES = ['active', 'pending', 'banned'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const USER_STATUS_LABELS: Record<UserStatus, string> = {
  active: 'Actif',
  pending: "En attente d'activation",
  banned: 'Banni',
};

export const adminUsersQuery = listQuery.extend({
  status: z.enum(USER_STATUSES).optional(),
  roleId: z.string().uuid('Identifiant invalide.').optional(),
  permission: z.enum(PERMISSIONS).optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

export const subscriptionSchema = z.object({
  permission: z.enum(PERMISSIONS),
  expiresAt: z.string().nullable(),
});

/** One row of `/admin/users`. */
export const adminUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  activated: z.boolean(),
  isAdministrator: z.boolean(),
  bannedAt: z.string().nullable(),
  banReason: z.string().nullable(),
  roles: z.array(roleRef),
  /** Active grants coming from orders (packages). */
  subscriptions: z.array(subscriptionSchema),
  hwid: z.string().nullable(),
  discordId: z.string().nullable(),
  isBotOnline: z.boolean(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserDetailSchema = adminUserSchema.extend({
  referral: z.string().nullable(),
  hwidResetAt: z.string().nullable(),
  /**
   * What set `hwidResetAt`: the customer's own déliaison (`unbind`) or their PC changed too much
   * since it was bound, counted as one (`pc_changed`, decision 906); null when neither happened.
   */
  hwidResetKind: z.enum(['unbind', 'pc_changed']).nullable(),
  grants: z.array(permissionGrantSchema),
  permissions: z.array(z.enum(PERMISSIONS)),
  twoFactorEnabled: z.boolean(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminSessionSchema = z.object({
  id: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  isActive: z.boolean(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

export const banInput = z.strictObject({
  reason: z.string().trim().min(3, 'Indiquez la raison du bannissement (3 caractères au moins).').max(300),
});
export type BanInput = z.infer<typeof banInput>;
export const userRolesInput = z.strictObject({
  roleIds: z.array(z.string().uuid('Identifiant invalide.')).max(50),
});
export type UserRolesInput = z.infer<typeof userRolesInput>;
export const userGrantParams = z.object({
  id: z.string().uuid('Identifiant invalide.'),
  grantId: z.string().uuid('Identifiant invalide.'),
});
export const userSessionParams = z.object({
  id: z.string().uuid('Identifiant invalide.'),
  sessionId: z.string().uuid('Identifiant invalide.'),
});
