import { LinkButton } from '../../../components/link-button.tsx';
import classes from './maintenance-page.module.css';

const DEFAULT_MAINTENANCE_MESSAGE = 'Le site est en maintenance. Veuillez réessayer plus tard.';

/** Paths reachable during maintenance: staff must be able to sign in. */
export function isOpenDuringMaintenance(pathname: string): boolean {
  return pathname === '/login';
}

/**
 * What visitors and customers see while the site is in maintenance (the API answers them 503). Plain
 * elements and static CSS with the look of MUI's Box, Typography and Button (docs/decisions/103).
 */
export function MaintenancePage({ message }: { message: string }) {
  return (
    <main className={classes.view}>
      <div className={classes.content}>
        <h1>Maintenance en cours</h1>
        <p data-testid="maintenance-message">{message.trim() || DEFAULT_MAINTENANCE_MESSAGE}</p>
        <p>Cette page se met à jour d'elle-même dès le retour du site.</p>
        <LinkButton to="/login" variant="outlined" size="small">
          Accès équipe
        </LinkButton>
      </div>
    </main>
  );
}
