import { receiptAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export function receiptQuery(orderId: string) {
  return queryOptions({
    queryKey: ['me', 'orders', orderId, 'receipt'] as const,
    queryFn: async () =>
      (
        await api.get(`/me/orders/${orderId}/receipt`, {
          schema: receiptAnswer,
          fallback: 'Reçu indisponible.',
        })
      ).data,
  });
}
