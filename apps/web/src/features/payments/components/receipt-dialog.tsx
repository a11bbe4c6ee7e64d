import { formatPrice, ORDER_STATUS_LABELS } from '@bot/contracts';
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

const percent = new Intl.NumberFormat('fr-FR', { style: 'percent', maximumFractionDigits: 2 });

/** A label and its value; amounts never wrap, words (an e-mail address) may. */
function Line({ label, value, isAmount = false }: { label: string; value: string; isAmount?: boolean }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.25 }}>
      <Typography color="text.secondary" sx={{ flexShrink: 0 }}>
        {label}
      </Typography>
      <Typography
        sx={{
          textAlign: 'right',
          minWidth: 0,
          ...(isAmount ? { whiteSpace: 'nowrap' } : { overflowWrap: 'anywhere' }),
        }}
      >
        {value}
      </Typography>
    </Box>
  );
}

/**
 * A printable receipt: the print button prints only this dialog (see the print styles below).
 * Customers read their own (`/me/orders/:id/receipt`); staff pass `asStaff` to read any order's.
 */
export function ReceiptDialog({
  orderId,
  asStaff = false,
  onClose,
}: {
  orderId: string;
  asStaff?: boolean;
  onClose: () => void;
}) {
  const receipt = useQuery(receiptQuery(orderId, asStaff));
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
            <Box sx={{ mb: 2, color: 'text.secondary' }}>
              {[
                data.seller.address,
                data.seller.companyId,
                data.seller.vatNumber ? `TVA intracommunautaire : ${data.seller.vatNumber}` : null,
                data.seller.url,
              ]
                .filter(Boolean)
                .map((line) => (
                  <Typography key={line} variant="body2">
                    {line}
                  </Typography>
                ))}
            </Box>
            <Line label="Client" value={`${data.customer.username} (${data.customer.email})`} />
            <Line label="Commande" value={data.order.number} />
            {data.order.paidAt ? (
              <Line label="Payée le" value={dateTime.format(new Date(data.order.paidAt))} />
            ) : null}
            <Line label="Moyen de paiement" value={data.paymentMethod} />
            <Line label="Statut" value={ORDER_STATUS_LABELS[data.order.status]} />
            <Divider sx={{ my: 1.5 }} />
            <Line
              label={`${data.order.packageName} — ${data.order.durationDays} jours`}
              value={formatPrice(data.order.priceCents, data.order.currency)}
              isAmount
            />
            {data.order.discountCents > 0 ? (
              <Line
                label={`Réduction${data.order.voucherCode ? ` (code ${data.order.voucherCode})` : ''}`}
                value={`− ${formatPrice(data.order.discountCents, data.order.currency)}`}
                isAmount
              />
            ) : null}
            <Divider sx={{ my: 1.5 }} />
            {data.tax ? (
              <>
                <Line label="Total HT" value={formatPrice(data.tax.netCents, data.order.currency)} isAmount />
                <Line
                  label={`TVA (${percent.format(data.tax.ratePercent / 100)})`}
                  value={formatPrice(data.tax.vatCents, data.order.currency)}
                  isAmount
                />
              </>
            ) : null}
            <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
              <Typography sx={{ fontWeight: 700 }}>{data.tax ? 'Total TTC' : 'Total'}</Typography>
              <Typography sx={{ fontWeight: 700 }} data-testid="receipt-total">
                {formatPrice(data.order.amountCents, data.order.currency)}
              </Typography>
            </Box>
            {data.order.refundedAt ? (
              <Box
                sx={{ display: 'flex', justifyContent: 'space-between', mt: 1 }}
                data-testid="receipt-refund"
              >
                <Typography>Remboursé le {dateTime.format(new Date(data.order.refundedAt))}</Typography>
                <Typography>− {formatPrice(data.order.amountCents, data.order.currency)}</Typography>
              </Box>
            ) : null}
            {data.order.status === 'paid' && data.order.startsAt && data.order.endsAt ? (
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
