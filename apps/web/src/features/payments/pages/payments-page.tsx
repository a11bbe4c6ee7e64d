import { formatPrice, PROVIDER_LABELS } from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { OrderStatusChip } from '../../../components/order-status-chip.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ScrollTable, useIsPhone } from '../../../components/scroll-table.tsx';
import { dateTimeMedium as dateTime } from '../../../lib/dates.ts';
import { ordersQuery } from '../../marketplace/index.ts';
import { OrderActions, OrderCards, period, RefundNote } from '../components/order-cards.tsx';
import { ReceiptDialog } from '../components/receipt-dialog.tsx';

/** /account/payments: the customer's orders with status, amounts, voucher and receipts. */
export default function PaymentsPage() {
  const orders = useQuery(ordersQuery);
  const [receiptOf, setReceiptOf] = useState<string | null>(null);
  const isPhone = useIsPhone();
  return (
    <>
      <PageHeader title="Mes paiements" subtitle="Vos commandes, leur statut et leurs reçus." />
      {orders.data && orders.data.length === 0 ? (
        <Alert severity="info">
          Aucune commande pour le moment.{' '}
          <RouterLink to="/account/marketplace" style={{ color: 'inherit' }}>
            Voir la boutique
          </RouterLink>
        </Alert>
      ) : null}
      {orders.data && orders.data.length > 0 ? (
        isPhone ? (
          <OrderCards orders={orders.data} onReceipt={setReceiptOf} />
        ) : (
          <Paper variant="outlined">
            <ScrollTable label="Mes commandes (tableau)">
              <Table size="small" aria-label="Mes commandes">
                <TableHead>
                  <TableRow>
                    <TableCell>Commande</TableCell>
                    <TableCell>Date</TableCell>
                    <TableCell>Offre</TableCell>
                    <TableCell>Statut</TableCell>
                    <TableCell align="right">Prix</TableCell>
                    <TableCell align="right">Réduction</TableCell>
                    <TableCell align="right">Montant</TableCell>
                    <TableCell>Période</TableCell>
                    <TableCell align="right">Actions</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {orders.data.map((order) => (
                    <TableRow key={order.id} data-testid="order-row">
                      <TableCell>
                        <span style={{ whiteSpace: 'nowrap' }}>{order.number}</span>
                        <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                          {PROVIDER_LABELS[order.provider]}
                        </Typography>
                      </TableCell>
                      <TableCell>{dateTime.format(new Date(order.createdAt))}</TableCell>
                      <TableCell>{order.packageName}</TableCell>
                      <TableCell>
                        <OrderStatusChip status={order.status} />
                      </TableCell>
                      <TableCell align="right">{formatPrice(order.priceCents, order.currency)}</TableCell>
                      <TableCell align="right">
                        {order.discountCents > 0
                          ? `− ${formatPrice(order.discountCents, order.currency)}`
                          : '—'}
                        {order.voucherCode ? (
                          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                            {order.voucherCode}
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell align="right">
                        {formatPrice(order.amountCents, order.currency)}
                        <RefundNote order={order} />
                      </TableCell>
                      <TableCell>{period(order)}</TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        <OrderActions order={order} onReceipt={setReceiptOf} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </ScrollTable>
          </Paper>
        )
      ) : null}
      {receiptOf ? <ReceiptDialog orderId={receiptOf} onClose={() => setReceiptOf(null)} /> : null}
    </>
  );
}
