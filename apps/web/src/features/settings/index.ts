/** The public settings as the app uses them: the store, its sync, the banner and maintenance page. */
export { startPublicSettingsSync, usePublicSettings } from './api/public-settings.ts';
export { isOpenDuringMaintenance, MaintenancePage } from './components/maintenance-page.tsx';
export { SiteBanner } from './components/site-banner.tsx';
