import { formatPrice, type Order } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { OrderStatusChip } from '../../../components/order-status-chip.tsx';
import { dateMedium as date, dateTimeMedium as dateTime } from '../../../lib/dates.ts';

/** "1 janv. 2026 → 31 janv. 2026", or a dash before payment. */
export function period(order: Order): string {
  return order.startsAt && order.endsAt
    ? `${date.format(new Date(order.startsAt))} → ${date.format(new Date(order.endsAt))}`
    : '—';
}

/** Only money that was received has a receipt (a refunded order's shows its refund). */
const hasReceipt = (order: Order) => order.status === 'paid' || order.status === 'refunded';

/** "remboursé le 3 févr. 2026" under a refunded amount. */
export function RefundNote({ order }: { order: Order }) {
  return order.refundedAt ? (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
      remboursé le {date.format(new Date(order.refundedAt))}
    </Typography>
  ) : null;
}

/** Pay (a pending order with its checkout) and the receipt (money received only). */
export function OrderActions({ order, onReceipt }: { order: Order; onReceipt: (id: string) => void }) {
  const pay =
    order.status === 'pending' && order.checkoutUrl ? (
      /^https?:\/\//.test(order.checkoutUrl) ? (
        <Button size="small" href={order.checkoutUrl}>
          Payer
        </Button>
      ) : (
        <Button size="small" component={RouterLink} to={order.checkoutUrl}>
          Payer
        </Button>
      )
    ) : null;
  return (
    <>
      {pay}
      {hasReceipt(order) ? (
        <Button size="small" onClick={() => onReceipt(order.id)}>
          Reçu
        </Button>
      ) : null}
    </>
  );
}

/** On a phone, one card per order: number and status, offer, amount, then its buttons. */
export function OrderCards({
  orders,
  onReceipt,
}: {
  orders: readonly Order[];
  onReceipt: (id: string) => void;
}) {
  return (
    <Stack component="ul" spacing={1} aria-label="Mes commandes" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {orders.map((order) => (
        <Paper component="li" variant="outlined" key={order.id} data-testid="order-row" sx={{ p: 1.5 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography sx={{ fontWeight: 600, whiteSpace: 'nowrap', flexGrow: 1 }}>
              {order.number}
            </Typography>
            <OrderStatusChip status={order.status} />
          </Box>
          <Typography variant="body2" color="text.secondary">
            {order.packageName} · {dateTime.format(new Date(order.createdAt))}
          </Typography>
          {order.startsAt ? <Typography variant="body2">Période : {period(order)}</Typography> : null}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5, flexWrap: 'wrap' }}>
            <Typography data-testid="order-amount" sx={{ fontWeight: 700, flexGrow: 1 }}>
              {formatPrice(order.amountCents, order.currency)}
              {order.discountCents > 0 ? (
                <Typography component="span" variant="caption" color="text.secondary">
                  {' '}
                  (− {formatPrice(order.discountCents, order.currency)}
                  {order.voucherCode ? `, bon ${order.voucherCode}` : ''})
                </Typography>
              ) : null}
              <RefundNote order={order} />
            </Typography>
            <OrderActions order={order} onReceipt={onReceipt} />
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}
