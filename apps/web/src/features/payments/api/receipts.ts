import { receiptAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

const receiptKeys = {
  ofOrder: (orderId: string) => ['me', 'orders', orderId, 'receipt'] as const,
  ofPayment: (orderId: string) => ['admin', 'payments', orderId, 'receipt'] as const,
};

/** The receipt of an order: the customer's own, or (staff) any order's. */
export function receiptQuery(orderId: string, asStaff: boolean) {
  return queryOptions({
    queryKey: asStaff ? receiptKeys.ofPayment(orderId) : receiptKeys.ofOrder(orderId),
    queryFn: async () =>
      (
        await api.get(asStaff ? `/admin/payments/${orderId}/receipt` : `/me/orders/${orderId}/receipt`, {
          schema: receiptAnswer,
          fallback: 'Reçu indisponible.',
        })
      ).data,
  });
}
