import { formatPrice, ORDER_STATUS_LABELS, PROVIDER_LABELS } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { dateLong as date, dateTimeLong as dateTime } from '../../../lib/dates.ts';
import { receiptQuery } from '../api/receipts.ts';

function Line({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.25 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ textAlign: 'right' }}>{value}</Typography>
    </Box>
  );
}

/** A printable receipt: the print button prints only this dialog (see the print styles below). */
export function ReceiptDialog({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const receipt = useQuery(receiptQuery(orderId));
  const data = receipt.data;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" className="printable-receipt">
      <style>{`@media print {
        body * { visibility: hidden; }
        .printable-receipt .MuiDialog-paper, .printable-receipt .MuiDialog-paper * { visibility: visible; color: #000 !important; background: #fff !important; }
        .printable-receipt .MuiDialog-paper { position: absolute; left: 0; top: 0; margin: 0; width: 100%; max-width: none; box-shadow: none; }
        .printable-receipt .no-print { display: none !important; }
      }`}</style>
      <DialogTitle>Reçu {data?.order.number ?? ''}</DialogTitle>
      <DialogContent data-testid="receipt">
        {data ? (
          <>
            <Typography sx={{ fontWeight: 700 }}>{data.seller.name}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {data.seller.url}
            </Typography>
            <Line label="Client" value={`${data.customer.username} (${data.customer.email})`} />
            <Line label="Commande" value={data.order.number} />
            <Line label="Date" value={dateTime.format(new Date(data.order.createdAt))} />
            <Line label="Statut" value={ORDER_STATUS_LABELS[data.order.status]} />
            <Line label="Moyen de paiement" value={PROVIDER_LABELS[data.order.provider]} />
            {data.order.paidAt ? (
              <Line label="Payée le" value={dateTime.format(new Date(data.order.paidAt))} />
            ) : null}
            {data.order.refundedAt ? (
              <Line label="Remboursée le" value={dateTime.format(new Date(data.order.refundedAt))} />
            ) : null}
            <Divider sx={{ my: 1.5 }} />
            <Line
              label={`${data.order.packageName} — ${data.order.durationDays} jours`}
              value={formatPrice(data.order.priceCents, data.order.currency)}
            />
            {data.order.discountCents > 0 ? (
              <Line
                label={`Réduction${data.order.voucherCode ? ` (code ${data.order.voucherCode})` : ''}`}
                value={`− ${formatPrice(data.order.discountCents, data.order.currency)}`}
              />
            ) : null}
            <Divider sx={{ my: 1.5 }} />
            <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
              <Typography sx={{ fontWeight: 700 }}>Total</Typography>
              <Typography sx={{ fontWeight: 700 }} data-testid="receipt-total">
                {formatPrice(data.order.amountCents, data.order.currency)}
              </Typography>
            </Box>
            {data.order.startsAt && data.order.endsAt ? (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
                Période couverte : du {date.format(new Date(data.order.startsAt))} au{' '}
                {date.format(new Date(data.order.endsAt))}.
              </Typography>
            ) : null}
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 2 }}>
              Reçu émis le {dateTime.format(new Date(data.issuedAt))}.
            </Typography>
          </>
        ) : (
          <Typography color="text.secondary">Chargement…</Typography>
        )}
      </DialogContent>
      <DialogActions className="no-print">
        <Button onClick={onClose}>Fermer</Button>
        <Button variant="contained" disabled={!data} onClick={() => window.print()}>
          Imprimer
        </Button>
      </DialogActions>
    </Dialog>
  );
}
