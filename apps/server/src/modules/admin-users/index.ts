// The admin-users module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { banUser } from './admin-users.actions.ts';
export { adminUsersRoutes } from './admin-users.routes.ts';
