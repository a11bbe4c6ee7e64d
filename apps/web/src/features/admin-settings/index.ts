/** The site settings as staff read them (the releases page shows the minimum version). */
export { adminSettingsQuery } from './api/settings.ts';
/** The admin layout's "Maintenance active" status. */
export { MaintenanceStatus } from './components/maintenance-status.tsx';
