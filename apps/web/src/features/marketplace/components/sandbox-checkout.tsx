import { formatPrice, type Order } from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { meKeys } from '../../auth/index.ts';
import { actOnSandboxCheckout, commerceKeys, orderQuery, reloadPermissions } from '../api/marketplace.ts';

const OUTCOME_TEXT: Record<Order['status'], string> = {
  pending: 'Paiement en attente.',
  paid: 'Paiement accepté : votre offre est active.',
  failed: 'Paiement refusé : aucune somme n’a été prélevée.',
  expired: 'Paiement expiré.',
  cancelled: 'Paiement annulé : rien n’a été prélevé et votre code promo est de nouveau utilisable.',
  refunded: 'Commande remboursée.',
};

/**
 * The sandbox provider's checkout page: no money moves, the three buttons tell the server what the
 * payment did. Shown at /account/marketplace?checkout=<orderId>.
 */
export function SandboxCheckout({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const order = useQuery(orderQuery(orderId));
  const act = useMutation({
    mutationFn: (action: 'succeed' | 'fail' | 'abandon') => actOnSandboxCheckout(orderId, action),
    onSuccess: async (updated) => {
      queryClient.setQueryData(commerceKeys.order(orderId), updated);
      await queryClient.invalidateQueries({ queryKey: meKeys.all });
      // The panel says the outcome (sandbox-outcome): no toast says it again.
      if (updated.status === 'paid') await reloadPermissions();
    },
  });
  const data = order.data;
  return (
    <Card
      variant="outlined"
      sx={{ borderColor: 'warning.main', borderWidth: 2, mb: 3 }}
      data-testid="sandbox-checkout"
    >
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
          <Chip color="warning" label="MODE TEST" sx={{ fontWeight: 700 }} />
          <Typography variant="h6">Paiement de test</Typography>
        </Stack>
        <Alert severity="warning" sx={{ mb: 2 }}>
          Aucun paiement réel : ce prestataire de test simule la réponse d’une banque. Choisissez l’issue du
          paiement.
        </Alert>
        {data ? (
          <Stack spacing={1}>
            <Typography>
              Commande <strong>{data.number}</strong> — {data.packageName}
            </Typography>
            <Typography variant="h5" data-testid="sandbox-amount">
              {formatPrice(data.amountCents, data.currency)}
            </Typography>
            {data.status === 'pending' ? (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ pt: 1 }}>
                <Button
                  variant="contained"
                  color="success"
                  disabled={act.isPending}
                  onClick={() => act.mutate('succeed')}
                >
                  Simuler un paiement réussi
                </Button>
                <Button
                  variant="outlined"
                  color="error"
                  disabled={act.isPending}
                  onClick={() => act.mutate('fail')}
                >
                  Simuler un refus
                </Button>
                <Button
                  variant="text"
                  color="inherit"
                  disabled={act.isPending}
                  onClick={() => act.mutate('abandon')}
                >
                  Annuler le paiement
                </Button>
              </Stack>
            ) : (
              <Alert severity={data.status === 'paid' ? 'success' : 'info'} data-testid="sandbox-outcome">
                {OUTCOME_TEXT[data.status]}
              </Alert>
            )}
            {data.status === 'pending' ? null : (
              <div>
                <Button onClick={onClose} size="small" sx={{ mt: 1 }}>
                  Fermer
                </Button>
              </div>
            )}
          </Stack>
        ) : (
          <Typography color="text.secondary">Chargement…</Typography>
        )}
      </CardContent>
    </Card>
  );
}
