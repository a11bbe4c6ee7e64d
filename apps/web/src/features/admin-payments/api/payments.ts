import { adminPaymentAnswer, adminPaymentsAnswer } from '@bot/contracts';
import { adminTableKey } from '../../../components/admin-table/index.ts';
import { api } from '../../../lib/api.ts';

export const PAYMENTS_ENDPOINT = '/admin/payments';

/** Under the table's key: a refund refreshes the list and the totals together. */
export const paymentKeys = {
  list: adminTableKey(PAYMENTS_ENDPOINT),
  totals: (params: string) => [...adminTableKey(PAYMENTS_ENDPOINT), 'totals', params] as const,
};

/** The totals of the filtered period (the list itself comes through AdminTable). */
export async function fetchPaymentTotals(params: URLSearchParams) {
  params.set('pageSize', '1');
  return (
    await api.get(`${PAYMENTS_ENDPOINT}?${params.toString()}`, {
      schema: adminPaymentsAnswer,
      fallback: 'Impossible de calculer les totaux.',
    })
  ).totals;
}

export async function refundPayment(id: string, reason: string) {
  return (
    await api.post(`${PAYMENTS_ENDPOINT}/${id}/refund`, reason ? { reason } : {}, {
      schema: adminPaymentAnswer,
      fallback: 'Remboursement impossible.',
    })
  ).data;
}
