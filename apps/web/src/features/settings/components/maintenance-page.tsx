import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

const DEFAULT_MAINTENANCE_MESSAGE = 'Le site est en maintenance. Veuillez réessayer plus tard.';

/** Paths reachable during maintenance: staff must be able to sign in. */
export function isOpenDuringMaintenance(pathname: string): boolean {
  return pathname === '/login';
}

/** What visitors and customers see while the site is in maintenance (the API answers them 503). */
export function MaintenancePage({ message }: { message: string }) {
  return (
    <Box
      component="main"
      sx={{ minHeight: '70vh', display: 'grid', placeItems: 'center', px: 2, textAlign: 'center' }}
    >
      <Box sx={{ maxWidth: 560 }}>
        <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.4rem' }, mb: 2 }}>
          Maintenance en cours
        </Typography>
        <Typography sx={{ mb: 3 }} data-testid="maintenance-message">
          {message.trim() || DEFAULT_MAINTENANCE_MESSAGE}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Cette page se met à jour d'elle-même dès le retour du site.
        </Typography>
        <Button component={RouterLink} to="/login" variant="outlined" size="small">
          Accès équipe
        </Button>
      </Box>
    </Box>
  );
}
