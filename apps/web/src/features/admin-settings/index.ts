/** The site settings as staff read them (the releases page shows the minimum version). */
export { adminSettingsQuery } from './api/settings.ts';
