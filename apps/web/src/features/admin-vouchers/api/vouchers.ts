import {
  packagesAnswer,
  type VoucherInput,
  type VoucherUpdateInput,
  voucherAnswer,
  voucherRedemptionsAnswer,
} from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export const VOUCHERS_ENDPOINT = '/admin/vouchers';

export async function createVoucher(input: VoucherInput) {
  return (
    await api.post(VOUCHERS_ENDPOINT, input, { schema: voucherAnswer, fallback: 'Création impossible.' })
  ).data;
}

export async function updateVoucher(id: string, input: VoucherUpdateInput) {
  return (
    await api.request('PATCH', `${VOUCHERS_ENDPOINT}/${id}`, {
      body: input,
      schema: voucherAnswer,
      fallback: 'Modification impossible.',
    })
  ).data;
}

export function deleteVoucher(id: string) {
  return api.delete(`${VOUCHERS_ENDPOINT}/${id}`, { fallback: 'Suppression impossible.' });
}

export function fetchRedemptions(id: string) {
  return api.get(`${VOUCHERS_ENDPOINT}/${id}/redemptions?pageSize=200`, {
    schema: voucherRedemptionsAnswer,
    fallback: 'Impossible de charger les utilisations.',
  });
}

/** Packages on sale, to restrict a voucher to one (public list: voucher staff may not manage packages). */
export const voucherKeys = {
  redemptions: (voucherId: string) => ['admin', 'vouchers', voucherId, 'redemptions'] as const,
  /** The packages a voucher may be tied to (the creation and edit dialogs). */
  packagesOnSale: ['admin', 'vouchers', 'packages-on-sale'] as const,
};

export async function fetchPackagesOnSale() {
  return (
    await api.get('/packages', { schema: packagesAnswer, fallback: 'Impossible de charger les offres.' })
  ).data;
}
