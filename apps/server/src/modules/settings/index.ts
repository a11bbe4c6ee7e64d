// The settings module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { maintenanceGuard } from './maintenance.guard.ts';
export { publicSettingsRoutes } from './settings.routes.ts';
export {
  claimServerSecret,
  createSettingsCache,
  getSettings,
  replaceServerSecret,
  takeServerSecret,
  toPublicSettings,
  updateSettings,
} from './settings.service.ts';
export { serverSecrets } from './settings.table.ts';
export { settingsAdminRoutes } from './settings-admin.routes.ts';
