/** The 13 permission names of docs/specification.md §3, spelt exactly. */
export const PERMISSIONS = [
  'can_manageAudit',
  'can_manageMap',
  'can_managePackages',
  'can_manageSettings',
  'can_managePermissions',
  'can_manageRoles',
  'can_manageRoute',
  'can_manageUsers',
  'can_manageUsersOnline',
  'can_manageVoucher',
  'can_manageWhitelist',
  'can_useGathering',
  'can_useTreasure',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  can_manageAudit: "Consulter le journal d'audit",
  can_manageMap: 'Voir la carte en direct de tous les bots',
  can_managePackages: 'Gérer les offres de la boutique',
  can_manageSettings: 'Gérer les paramètres du site et les paiements',
  can_managePermissions: 'Gérer les permissions',
  can_manageRoles: 'Gérer les rôles',
  can_manageRoute: 'Gérer les itinéraires des bots',
  can_manageUsers: 'Gérer les utilisateurs',
  can_manageUsersOnline: 'Voir et gérer les utilisateurs connectés',
  can_manageVoucher: 'Gérer les bons de réduction',
  can_manageWhitelist: 'Gérer la liste blanche des comptes de jeu',
  can_useGathering: 'Utiliser le bot de récolte',
  can_useTreasure: 'Utiliser le bot de chasse au trésor',
};

/** Permissions a package may grant to its buyer. */
export const BOT_PERMISSIONS = [
  'can_useGathering',
  'can_useTreasure',
] as const satisfies readonly Permission[];
export type BotPermission = (typeof BOT_PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** Staff permissions open the admin area: every `can_manage*`; the others are what customers buy. */
export function isStaffPermission(name: string): boolean {
  return name.startsWith('can_manage');
}

/** Staff: administrators and holders of any staff permission (they keep the site during maintenance). */
export function isStaff(input: { isAdministrator: boolean; permissions: readonly string[] }): boolean {
  return input.isAdministrator || input.permissions.some(isStaffPermission);
}

/**
 * What people read for a permission: its French description ("Gérer les utilisateurs"), never the
 * raw name. A name the contracts do not know (an old audit entry, say) shows as is.
 */
export function permissionLabel(name: string): string {
  return isPermission(name) ? PERMISSION_DESCRIPTIONS[name] : name;
}
