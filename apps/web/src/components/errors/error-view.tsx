import { useEffect } from 'react';
import { ActionButton, LinkButton } from '../link-button.tsx';
import classes from './error-view.module.css';

export interface ErrorViewProps {
  status?: number;
  message?: string;
  description?: string;
  /** The document title; defaults to the title of the status. */
  title?: string;
}

/**
 * docs/specification.md §2: every error status but 404 shows "Internal Server Error" (default 500). Plain
 * elements and static CSS with the look of MUI's Box, Typography and Button: the view is in every first
 * load, as the root error boundary and the 404 page (docs/decisions/103).
 */
export function ErrorView({
  status = 500,
  message = 'Internal Server Error',
  description = 'Une erreur inattendue est survenue. Réessayez dans un instant ou revenez à l’accueil.',
  title = 'Internal Server Error',
}: ErrorViewProps) {
  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    <main role="alert" className={classes.view}>
      <p className={classes.status} data-testid="error-status">
        {status}
      </p>
      <h1 data-testid="error-message">{message}</h1>
      <p className={classes.description} data-testid="error-description">
        {description}
      </p>
      <div className={classes.actions}>
        <LinkButton variant="contained" to="/">
          Retour à l’accueil
        </LinkButton>
        <ActionButton variant="outlined" onClick={() => window.location.reload()}>
          Recharger la page
        </ActionButton>
      </div>
    </main>
  );
}
