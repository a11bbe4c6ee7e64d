import { formatPrice, type Order } from '@bot/contracts';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { notifyInfo } from '../../../lib/notify.ts';
import { cancelOrder, commerceKeys, ordersQuery } from '../api/marketplace.ts';

const isExternal = (url: string) => /^https?:\/\//.test(url);

/**
 * Checkouts the customer started and left: resume the payment or cancel it (which gives a voucher
 * use back at once). Hidden while the sandbox checkout of that order is open above.
 */
export function PendingOrders({ hiddenOrderId }: { hiddenOrderId: string | null }) {
  const queryClient = useQueryClient();
  const orders = useQuery(ordersQuery);
  const cancel = useMutation({
    mutationFn: (order: Order) => cancelOrder(order.id),
    onSuccess: async (order) => {
      await queryClient.invalidateQueries({ queryKey: commerceKeys.orders });
      notifyInfo(
        order.voucherCode
          ? `Paiement ${order.number} annulé : le code ${order.voucherCode} est de nouveau utilisable.`
          : `Paiement ${order.number} annulé.`,
      );
    },
  });
  const pending = (orders.data ?? []).filter(
    (order) => order.status === 'pending' && order.checkoutUrl && order.id !== hiddenOrderId,
  );
  if (pending.length === 0) return null;
  return (
    <Card variant="outlined" sx={{ mb: 3, borderColor: 'warning.main' }} data-testid="pending-orders">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Paiement en attente
        </Typography>
        <Stack spacing={1.5}>
          {pending.map((order) => (
            <Stack
              key={order.id}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1}
              sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
              data-testid="pending-order"
            >
              <Typography>
                <strong>{order.packageName}</strong> — {formatPrice(order.amountCents, order.currency)}
                {order.voucherCode ? ` avec le code ${order.voucherCode}` : ''}
                <Typography component="span" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                  {' '}
                  · {order.number}
                </Typography>
              </Typography>
              <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
                {isExternal(order.checkoutUrl as string) ? (
                  <Button variant="contained" href={order.checkoutUrl as string}>
                    Reprendre le paiement
                  </Button>
                ) : (
                  <Button variant="contained" component={RouterLink} to={order.checkoutUrl as string}>
                    Reprendre le paiement
                  </Button>
                )}
                <Button color="inherit" disabled={cancel.isPending} onClick={() => cancel.mutate(order)}>
                  Annuler
                </Button>
              </Stack>
            </Stack>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
