import type { PublicSettings } from '@bot/contracts';
import classes from './site-banner.module.css';

/**
 * Maintenance notice and announcement from the public settings: plain paragraphs and static CSS
 * (no MUI Alert, Box or Typography in the first load, docs/decisions/103).
 */
export function SiteBanner({ settings }: { settings: PublicSettings | undefined }) {
  if (!settings) return null;
  const { maintenanceMode, maintenanceMessage, announcement } = settings;
  if (!maintenanceMode && !announcement) return null;
  return (
    <div role="status" className={classes.banner}>
      {maintenanceMode ? (
        <p className={classes.maintenance}>
          {maintenanceMessage || 'Le site est en maintenance. Certaines fonctions sont indisponibles.'}
        </p>
      ) : null}
      {announcement ? <p className={classes.announcement}>{announcement}</p> : null}
    </div>
  );
}
