import { receiptAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

const receiptKeys = { ofOrder: (orderId: string) => ['me', 'orders', orderId, 'receipt'] as const };

export function receiptQuery(orderId: string) {
  return queryOptions({
    queryKey: receiptKeys.ofOrder(orderId),
    queryFn: async () =>
      (
        await api.get(`/me/orders/${orderId}/receipt`, {
          schema: receiptAnswer,
          fallback: 'Reçu indisponible.',
        })
      ).data,
  });
}
