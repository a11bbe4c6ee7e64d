// The maintenance-windows module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { maintenanceWindowsRoutes } from './maintenance-windows.routes.ts';
export {
  cancelMaintenanceWindow,
  createMaintenanceCache,
  createMaintenanceWindow,
  type MaintenanceState,
  maintenanceState,
  runningMaintenance,
} from './maintenance-windows.service.ts';
