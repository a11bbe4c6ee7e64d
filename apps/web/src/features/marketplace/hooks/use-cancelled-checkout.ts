import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { notifyInfo } from '../../../lib/notify.ts';
import { cancelOrder, commerceKeys } from '../api/marketplace.ts';

/**
 * The payment provider sends a customer who leaves its page back to `?cancelled=<orderId>`: the
 * order is cancelled at once (its voucher use given back), not left pending until it expires.
 */
export function useCancelledCheckout(): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const orderId = searchParams.get('cancelled');
  const handled = useRef<string | null>(null);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!orderId || handled.current === orderId) return;
    handled.current = orderId;
    const next = new URLSearchParams(searchParams);
    next.delete('cancelled');
    setSearchParams(next, { replace: true });
    cancelOrder(orderId).then(
      (order) => {
        notifyInfo(
          order.voucherCode
            ? `Paiement annulé : le code ${order.voucherCode} est de nouveau utilisable.`
            : 'Paiement annulé : rien n’a été prélevé.',
        );
        void queryClient.invalidateQueries({ queryKey: commerceKeys.orders });
      },
      // Already paid or closed meanwhile: the orders list tells the truth.
      () => void queryClient.invalidateQueries({ queryKey: commerceKeys.orders }),
    );
  }, [orderId, searchParams, setSearchParams, queryClient]);
}
