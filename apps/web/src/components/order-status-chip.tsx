import { ORDER_STATUS_LABELS, type OrderStatus } from '@bot/contracts';
import Chip from '@mui/material/Chip';

const COLORS: Record<OrderStatus, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  pending: 'warning',
  paid: 'success',
  failed: 'error',
  expired: 'default',
  cancelled: 'default',
  refunded: 'info',
};

export function OrderStatusChip({ status }: { status: OrderStatus }) {
  return <Chip size="small" color={COLORS[status]} label={ORDER_STATUS_LABELS[status]} />;
}
