import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Outlet, Link as RouterLink } from 'react-router';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/skip-link.tsx';
import { useIsConnected } from '../../lib/auth-store.ts';
import { APP_NAME } from '../../lib/constants.ts';

/** The public layout: top bar, page, footer. */
export function LandingLayout() {
  const isConnected = useIsConnected();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <AppBar
        position="sticky"
        color="transparent"
        elevation={0}
        sx={{ backdropFilter: 'blur(8px)', borderBottom: 1, borderColor: 'divider' }}
      >
        <Toolbar component="nav" aria-label="Navigation principale" sx={{ gap: 1 }}>
          <Typography
            component={RouterLink}
            to="/"
            variant="h6"
            color="primary"
            sx={{ textDecoration: 'none', fontWeight: 700, flexGrow: 1 }}
          >
            {APP_NAME}
          </Typography>
          <Button
            color="inherit"
            component={RouterLink}
            to="/started"
            sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
          >
            Bien démarrer
          </Button>
          {isConnected ? (
            <Button variant="contained" component={RouterLink} to="/account">
              Mon compte
            </Button>
          ) : (
            <>
              <Button color="inherit" component={RouterLink} to="/login">
                Connexion
              </Button>
              <Button variant="contained" component={RouterLink} to="/register">
                Inscription
              </Button>
            </>
          )}
        </Toolbar>
      </AppBar>
      <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} sx={{ flexGrow: 1 }}>
        <Outlet />
      </Box>
      <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 3 }}>
        <Container sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, color: 'text.secondary' }}>
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            © {new Date().getFullYear()} {APP_NAME}
          </Typography>
          <Link component={RouterLink} to="/started" color="inherit" variant="body2">
            Bien démarrer
          </Link>
          <Link component={RouterLink} to="/forgot-password" color="inherit" variant="body2">
            Mot de passe oublié
          </Link>
        </Container>
      </Box>
    </Box>
  );
}
