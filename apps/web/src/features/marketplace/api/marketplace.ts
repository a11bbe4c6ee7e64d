import {
  type CreateOrderInput,
  orderAnswer,
  ordersAnswer,
  packagesAnswer,
  subscriptionsAnswer,
  voucherPreviewAnswer,
} from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { fetchMyPermissions } from '../../auth/index.ts';

export const commerceKeys = {
  packages: ['packages'] as const,
  subscriptions: ['me', 'subscriptions'] as const,
  orders: ['me', 'orders'] as const,
  order: (id: string) => ['me', 'orders', id] as const,
};

export const packagesQuery = queryOptions({
  queryKey: commerceKeys.packages,
  queryFn: async () =>
    (await api.get('/packages', { schema: packagesAnswer, fallback: 'Impossible de charger les offres.' }))
      .data,
});

export const subscriptionsQuery = queryOptions({
  queryKey: commerceKeys.subscriptions,
  queryFn: async () =>
    (
      await api.get('/me/subscriptions', {
        schema: subscriptionsAnswer,
        fallback: 'Impossible de charger vos abonnements.',
      })
    ).data,
});

export const ordersQuery = queryOptions({
  queryKey: commerceKeys.orders,
  queryFn: async () =>
    (await api.get('/me/orders', { schema: ordersAnswer, fallback: 'Impossible de charger vos commandes.' }))
      .data,
});

export function orderQuery(id: string) {
  return queryOptions({
    queryKey: commerceKeys.order(id),
    queryFn: async () =>
      (await api.get(`/me/orders/${id}`, { schema: orderAnswer, fallback: 'Commande introuvable.' })).data,
  });
}

/** POST /me/orders: starts a checkout (or, nothing to pay, answers a paid order). */
export async function createOrder(input: CreateOrderInput) {
  return (await api.post('/me/orders', input, { schema: orderAnswer, fallback: 'La commande a échoué.' }))
    .data;
}

/** POST /me/orders/:id/cancel: closes a pending checkout, giving its voucher use back. */
export async function cancelOrder(orderId: string) {
  return (
    await api.post(`/me/orders/${orderId}/cancel`, undefined, {
      schema: orderAnswer,
      fallback: 'Impossible d’annuler ce paiement.',
    })
  ).data;
}

/** POST /me/vouchers/preview: the prices a code gives; errors are shown by the caller. */
export async function previewVoucher(input: { code: string; packageId?: string }) {
  return (
    await api.post('/me/vouchers/preview', input, {
      schema: voucherPreviewAnswer,
      fallback: 'Code promo invalide.',
      silent: true,
    })
  ).data;
}

/** The sandbox provider's buttons (test mode only). */
export async function actOnSandboxCheckout(orderId: string, action: 'succeed' | 'fail' | 'abandon') {
  return (
    await api.post(`/payments/sandbox/${orderId}/${action}`, undefined, {
      schema: orderAnswer,
      fallback: 'Le paiement de test a échoué.',
    })
  ).data;
}

/** A purchase grants permissions: store them at once so the guards (bot page) see them. */
export async function reloadPermissions(): Promise<void> {
  try {
    useAuthStore.getState().setPermissions(await fetchMyPermissions());
  } catch {
    // The account layout refreshes them too; a failure here only delays the update.
  }
}
