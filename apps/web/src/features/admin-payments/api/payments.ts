import { adminPaymentAnswer, adminPaymentsAnswer } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export const PAYMENTS_ENDPOINT = '/admin/payments';

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
