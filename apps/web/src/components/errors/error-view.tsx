import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';

export interface ErrorViewProps {
  status?: number;
  message?: string;
  description?: string;
  /** The document title; defaults to the title of the status. */
  title?: string;
}

/** SPEC.md section 8: every error status but 404 shows "Internal Server Error" (default 500). */
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
    <Box
      component="main"
      role="alert"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 2,
        p: 3,
        bgcolor: 'background.default',
        color: 'text.primary',
      }}
    >
      <Typography
        variant="h1"
        component="p"
        color="primary"
        sx={{ fontSize: { xs: '4rem', md: '6rem' } }}
        data-testid="error-status"
      >
        {status}
      </Typography>
      <Typography variant="h2" component="h1" data-testid="error-message">
        {message}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 560 }} data-testid="error-description">
        {description}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, mt: 2 }}>
        <Button variant="contained" component={RouterLink} to="/">
          Retour à l’accueil
        </Button>
        <Button variant="outlined" onClick={() => window.location.reload()}>
          Recharger la page
        </Button>
      </Box>
    </Box>
  );
}
