import { countOf, ORDER_STATUS_LABELS, type OrderStatus, type Voucher } from '@bot/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { dateTimeMedium as dateTime } from '../../../lib/dates.ts';
import { fetchRedemptions, voucherKeys } from '../api/vouchers.ts';

export function RedemptionsDialog({ voucher, onClose }: { voucher: Voucher; onClose: () => void }) {
  const redemptions = useQuery({
    queryKey: voucherKeys.redemptions(voucher.id),
    queryFn: () => fetchRedemptions(voucher.id),
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Utilisations de {voucher.code}</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {redemptions.data ? countOf(redemptions.data.total, 'utilisation', 'utilisations') : 'Chargement…'}
        </Typography>
        <List dense>
          {redemptions.data?.data.map((redemption) => (
            <ListItem key={redemption.id} divider>
              <ListItemText
                primary={redemption.user.username}
                secondary={`${dateTime.format(new Date(redemption.createdAt))}${
                  redemption.orderStatus
                    ? ` · commande ${ORDER_STATUS_LABELS[redemption.orderStatus as OrderStatus] ?? redemption.orderStatus}`
                    : ''
                }`}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fermer</Button>
      </DialogActions>
    </Dialog>
  );
}
