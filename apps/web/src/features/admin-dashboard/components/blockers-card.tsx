import type { Permission } from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { usePublicSettings } from '../../settings/index.ts';
import { onSaleQuery, publishedReleasesQuery as publishedQuery } from '../api/dashboard.ts';

interface Blocker {
  id: string;
  text: string;
  fix: { label: string; to: string } | null;
}

/**
 * What stops customers from getting a bot running, each with the page that fixes it: no published
 * build (nothing to download), no package on sale (nothing to buy), maintenance on (nobody gets in).
 */
export function BlockersCard({ has }: { has: (permission: Permission) => boolean }) {
  const canManageSettings = has('can_manageSettings');
  const canManagePackages = has('can_managePackages');
  const onSale = useQuery(onSaleQuery);
  const published = useQuery({ ...publishedQuery, enabled: canManageSettings });
  const isMaintenance = usePublicSettings((state) => state.settings?.maintenanceMode === true);
  const blockers: Blocker[] = [];
  if (canManageSettings && published.data === 0) {
    blockers.push({
      id: 'no-release',
      text: 'Aucune version du bot n’est publiée : les clients n’ont rien à télécharger.',
      fix: { label: 'Publier une version', to: '/admin/releases' },
    });
  }
  if (onSale.data === 0) {
    blockers.push({
      id: 'no-package',
      text: 'Aucune offre n’est en vente : la boutique est vide.',
      fix: canManagePackages ? { label: 'Créer une offre', to: '/admin/package' } : null,
    });
  }
  if (isMaintenance) {
    blockers.push({
      id: 'maintenance',
      text: 'La maintenance est active : les clients ne peuvent ni se connecter ni utiliser le site.',
      fix: canManageSettings ? { label: 'Réglages du site', to: '/admin/settings' } : null,
    });
  }
  const isKnown = onSale.data !== undefined && (!canManageSettings || published.data !== undefined);
  if (!isKnown) return null;
  return (
    <Card variant="outlined" data-testid="dashboard-blockers" sx={{ gridColumn: '1 / -1' }}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ fontSize: '1.05rem', mb: 1.5 }}>
          Ce qui bloque les clients
        </Typography>
        {blockers.length === 0 ? (
          <Typography color="text.secondary" data-testid="dashboard-no-blocker">
            Rien ne bloque : une version est publiée, des offres sont en vente et le site est ouvert.
          </Typography>
        ) : (
          <Stack spacing={1}>
            {blockers.map((blocker) => (
              <Alert key={blocker.id} severity="warning" data-testid={`blocker-${blocker.id}`}>
                {blocker.text}
                {blocker.fix ? (
                  <Button
                    component={RouterLink}
                    to={blocker.fix.to}
                    color="inherit"
                    size="small"
                    variant="outlined"
                    sx={{
                      ml: { md: 1 },
                      mt: { xs: 1, md: 0 },
                      display: { xs: 'flex', md: 'inline-flex' },
                      width: 'fit-content',
                    }}
                  >
                    {blocker.fix.label}
                  </Button>
                ) : null}
              </Alert>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
