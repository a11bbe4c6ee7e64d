// The roles module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export {
  assertNameFree,
  deleteRoleRow,
  getRoleDetail,
  insertRole,
  listAllRoles,
  listRoles,
  memberIdsOf,
  permissionsOfRoles,
  replaceUserRoles,
  seedPermissions,
  setRolePermissions,
  streamRoles,
  updateRoleRow,
  withNameGuard,
} from './roles.service.ts';
export { permissions, rolePermissions, roles, userRoles } from './roles.table.ts';
