import { Outlet, Link as RouterLink } from 'react-router';
import { LinkButton } from '../../components/link-button.tsx';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/skip-link.tsx';
import { useIsConnected } from '../../lib/auth-store.ts';
import { APP_NAME } from '../../lib/constants.ts';
import classes from './landing-layout.module.css';

/**
 * The public layout: top bar, page, footer. Plain elements and static CSS with the look of MUI's AppBar,
 * Toolbar, Typography, Button and Link: it is part of every visitor's first paint (docs/decisions/103).
 */
export function LandingLayout() {
  const isConnected = useIsConnected();
  return (
    <div className={classes.frame}>
      <SkipLink />
      <header className={classes.bar}>
        <nav aria-label="Navigation principale">
          <RouterLink to="/" className={classes.brand}>
            {APP_NAME}
          </RouterLink>
          <LinkButton to="/started" className={classes.wideOnly}>
            Bien démarrer
          </LinkButton>
          {isConnected ? (
            <LinkButton variant="contained" to="/account">
              Mon compte
            </LinkButton>
          ) : (
            <>
              <LinkButton to="/login">Connexion</LinkButton>
              <LinkButton variant="contained" to="/register">
                Inscription
              </LinkButton>
            </>
          )}
        </nav>
      </header>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.main}>
        <Outlet />
      </main>
      <footer className={classes.footer}>
        <div className={classes.footerContent}>
          <p>
            © {new Date().getFullYear()} {APP_NAME}
          </p>
          <RouterLink to="/started">Bien démarrer</RouterLink>
          <RouterLink to="/forgot-password">Mot de passe oublié</RouterLink>
        </div>
      </footer>
    </div>
  );
}
