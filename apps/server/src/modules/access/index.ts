// The access module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export {
  canRunBot,
  createPermissionCache,
  findPermissionEnds,
  findRolesOfUsers,
  findUserIdsHolding,
  findUsersWithGrantsExpiredBetween,
  getPermissionsOfUsers,
  getUserPermissions,
  grantPermission,
  hasPermissions,
  invalidateUserPermissions,
  removeGrants,
  revokeGrantsOfSource,
  setGrantExpiry,
} from './access.service.ts';
export { type GrantRow, userGrants } from './access.table.ts';
export {
  createUserCache,
  getCachedPublicUser,
  getPublicUser,
  toPublicUsers,
} from './public-user.ts';
export {
  assertMayReadBotOf,
  assertMayReadUser,
  assertRankForWrite,
  findOutrankingUserIds,
  mayReadBotOf,
  outrankedByCondition,
} from './staff-rank.ts';
