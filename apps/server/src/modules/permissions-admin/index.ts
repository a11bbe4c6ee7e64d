// The permissions-admin module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { permissionsAdminRoutes } from './permissions-admin.routes.ts';
export {
  assertMayGivePermissions,
  assertMayManageUser,
  createGrant,
  deleteGrant,
  findGrantsOfUsers,
  updateGrant,
} from './permissions-admin.service.ts';
export { rolesRoutes } from './roles-admin.routes.ts';
