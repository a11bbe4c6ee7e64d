import type { PublicSettings } from '@bot/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Maintenance notice and announcement from the public settings (plain boxes: no Alert in the entry chunk). */
export function SiteBanner({ settings }: { settings: PublicSettings | undefined }) {
  if (!settings) return null;
  const { maintenanceMode, maintenanceMessage, announcement } = settings;
  if (!maintenanceMode && !announcement) return null;
  return (
    <Box role="status" sx={{ position: 'relative', zIndex: 1300 }}>
      {maintenanceMode ? (
        <Typography
          sx={{ px: 2, py: 1, bgcolor: 'warning.dark', color: 'warning.contrastText', textAlign: 'center' }}
        >
          {maintenanceMessage || 'Le site est en maintenance. Certaines fonctions sont indisponibles.'}
        </Typography>
      ) : null}
      {announcement ? (
        <Typography
          sx={{ px: 2, py: 1, bgcolor: 'info.dark', color: 'info.contrastText', textAlign: 'center' }}
        >
          {announcement}
        </Typography>
      ) : null}
    </Box>
  );
}
