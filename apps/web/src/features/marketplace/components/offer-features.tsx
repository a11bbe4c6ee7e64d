import { countOf, permissionLabel } from '@bot/contracts';
import CheckIcon from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** What a customer gets from each bot permission, in their words (not the staff's permission names). */
const WHAT_YOU_GET: Record<string, string> = {
  can_useGathering: 'Récolte automatique des ressources',
  can_useTreasure: 'Chasses au trésor enchaînées automatiquement',
};

/**
 * An offer's features as a list of what the customer gets, ticked: pill chips looked like buttons
 * and spoke in permission names (docs/decisions/106).
 */
export function OfferFeatures({
  grants,
  whitelistSlots,
}: {
  grants: readonly string[];
  whitelistSlots: number;
}) {
  const features = [
    ...grants.map((grant) => WHAT_YOU_GET[grant] ?? permissionLabel(grant)),
    whitelistSlots === 1
      ? 'Un compte de jeu piloté par votre bot'
      : `Jusqu’à ${countOf(whitelistSlots, 'compte de jeu', 'comptes de jeu')} pilotés par votre bot`,
  ];
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="offer-features">
      {features.map((feature) => (
        <Box
          component="li"
          key={feature}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', py: 0.25 }}
        >
          <CheckIcon fontSize="small" color="success" aria-hidden sx={{ mt: 0.25 }} />
          <Typography variant="body2">{feature}</Typography>
        </Box>
      ))}
    </Box>
  );
}
