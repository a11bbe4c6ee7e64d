// The roles module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { rolesRoutes } from './roles.routes.ts';
export { listAllRoles, permissionsOfRoles, replaceUserRoles } from './roles.service.ts';
export { rolePermissions, roles, userRoles } from './roles.table.ts';
