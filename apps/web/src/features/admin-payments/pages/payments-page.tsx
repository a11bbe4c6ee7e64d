import {
  type AdminPayment,
  formatPrice,
  ORDER_STATUS_LABELS,
  ORDER_STATUSES,
  PAYMENT_PROVIDERS,
  PROVIDER_LABELS,
} from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AdminTable, listSearchParams } from '../../../components/admin-table/index.ts';
import { OrderStatusChip } from '../../../components/order-status-chip.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { dateTimeShort as dateTime, viewerTimeZone } from '../../../lib/dates.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { ReceiptDialog } from '../../payments/index.ts';
import { fetchPaymentTotals, PAYMENTS_ENDPOINT, paymentKeys, refundPayment } from '../api/payments.ts';

/** A date input (yyyy-mm-dd) as the start or the end of that day, in the browser's time zone. */
function dayBound(value: string, end: boolean): string | undefined {
  if (!value) return undefined;
  const date = new Date(`${value}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function Total({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

/** /admin/payments: every payment, filters, totals of the period, refunds, CSV export. */
export default function AdminPaymentsPage() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState('');
  const [provider, setProvider] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [refunding, setRefunding] = useState<AdminPayment | null>(null);
  const [receiptOf, setReceiptOf] = useState<string | null>(null);
  // `/admin/payments?userId=<id>` lists one customer's payments (links from a user's page).
  const [searchParams, setSearchParams] = useSearchParams();
  const userId = searchParams.get('userId') ?? '';
  const [reason, setReason] = useState('');
  const filters = useMemo(
    () => ({ status, provider, from: dayBound(from, false), to: dayBound(to, true), userId }),
    [status, provider, from, to, userId],
  );
  const totalsParams = listSearchParams({
    filters: { provider: filters.provider, from: filters.from, to: filters.to },
  });
  const totals = useQuery({
    queryKey: paymentKeys.totals(totalsParams.toString()),
    queryFn: () => fetchPaymentTotals(new URLSearchParams(totalsParams)),
  });
  const refund = useMutation({
    mutationFn: (payment: AdminPayment) => refundPayment(payment.id, reason.trim()),
    onSuccess: async (payment) => {
      notifySuccess(`Commande ${payment.number} remboursée.`);
      setRefunding(null);
      setReason('');
      await queryClient.invalidateQueries({ queryKey: paymentKeys.list });
    },
  });

  const columns: GridColDef<AdminPayment>[] = [
    { field: 'number', headerName: 'Commande', width: 120 },
    {
      field: 'createdAt',
      headerName: 'Date',
      width: 150,
      valueFormatter: (value: string) => dateTime.format(new Date(value)),
    },
    {
      field: 'username',
      headerName: 'Client',
      flex: 1,
      minWidth: 130,
      valueGetter: (_value, row) => row.user.username,
    },
    { field: 'packageName', headerName: 'Offre', flex: 1, minWidth: 130, sortable: false },
    {
      field: 'status',
      headerName: 'Statut',
      width: 130,
      renderCell: ({ row }) => <OrderStatusChip status={row.status} />,
    },
    {
      field: 'provider',
      headerName: 'Moyen',
      width: 150,
      valueFormatter: (value: AdminPayment['provider']) => PROVIDER_LABELS[value],
    },
    {
      field: 'amountCents',
      headerName: 'Montant',
      width: 110,
      valueFormatter: (value: number, row) => formatPrice(value, row.currency),
    },
    {
      field: 'voucherCode',
      headerName: 'Code promo',
      width: 150,
      sortable: false,
      valueFormatter: (value: string | null) => value ?? '—',
    },
    {
      field: 'actions',
      headerName: 'Actions',
      width: 200,
      sortable: false,
      renderCell: ({ row }) => (
        <>
          {row.status === 'paid' || row.status === 'refunded' ? (
            <Button size="small" onClick={() => setReceiptOf(row.id)}>
              Reçu
            </Button>
          ) : null}
          {row.status === 'paid' ? (
            <Button size="small" color="error" onClick={() => setRefunding(row)}>
              Rembourser
            </Button>
          ) : null}
        </>
      ),
    },
  ];

  const t = totals.data;
  return (
    <>
      <PageHeader
        title="Paiements"
        subtitle={`Les paiements et commandes des clients. Heures de votre fuseau (${viewerTimeZone}).`}
      />
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={4}>
            <Total
              label="Encaissé sur la période"
              value={t ? formatPrice(t.paidCents, t.currency) : '…'}
              testId="total-paid"
            />
            <Total label="Commandes payées" value={t ? String(t.paidCount) : '…'} />
            <Total
              label="Remboursé"
              value={t ? `${formatPrice(t.refundedCents, t.currency)} (${t.refundedCount})` : '…'}
            />
            <Total label="Réductions accordées" value={t ? formatPrice(t.discountCents, t.currency) : '…'} />
          </Stack>
        </CardContent>
      </Card>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ mb: 2 }}>
        <TextField
          select
          size="small"
          label="Statut"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          sx={{ minWidth: 150 }}
        >
          <MenuItem value="">Tous</MenuItem>
          {ORDER_STATUSES.map((value) => (
            <MenuItem key={value} value={value}>
              {ORDER_STATUS_LABELS[value]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Moyen"
          value={provider}
          onChange={(e) => setProvider(e.target.value)}
          sx={{ minWidth: 170 }}
        >
          <MenuItem value="">Tous</MenuItem>
          {PAYMENT_PROVIDERS.map((value) => (
            <MenuItem key={value} value={value}>
              {PROVIDER_LABELS[value]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="date"
          label="Du"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label="Au"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        {userId ? (
          <Chip
            label="Un seul client"
            onDelete={() => {
              const next = new URLSearchParams(searchParams);
              next.delete('userId');
              setSearchParams(next, { replace: true });
            }}
            sx={{ alignSelf: 'center' }}
          />
        ) : null}
      </Stack>
      <AdminTable<AdminPayment>
        endpoint={PAYMENTS_ENDPOINT}
        empty={{ text: 'Aucun paiement pour le moment : les commandes des clients apparaîtront ici.' }}
        columns={columns}
        secondaryColumns={['provider', 'voucherCode']}
        filters={filters}
        initialSort="-createdAt"
        csvFilename="paiements.csv"
        label="Paiements"
        searchPlaceholder="Client, offre, code promo ou n° de commande"
      />
      {receiptOf ? <ReceiptDialog orderId={receiptOf} asStaff onClose={() => setReceiptOf(null)} /> : null}
      {refunding ? (
        <Dialog open onClose={() => setRefunding(null)} fullWidth maxWidth="xs">
          <DialogTitle>Rembourser {refunding.number} ?</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>
              {formatPrice(refunding.amountCents, refunding.currency)} pour {refunding.user.username}. Les
              permissions et places données par cette commande sont retirées.
            </DialogContentText>
            <TextField
              label="Motif (facultatif)"
              name="reason"
              fullWidth
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setRefunding(null)}>Annuler</Button>
            <Button
              color="error"
              variant="contained"
              disabled={refund.isPending}
              onClick={() => refund.mutate(refunding)}
            >
              Rembourser
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </>
  );
}
