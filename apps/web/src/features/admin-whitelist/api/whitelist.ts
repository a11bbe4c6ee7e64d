import { type AdminWhitelistAddInput, adminWhitelistEntryAnswer } from '@bot/contracts';
import { api } from '../../../lib/api.ts';

export const WHITELIST_ENDPOINT = '/admin/whitelist';

export async function addEntryForCustomer(input: AdminWhitelistAddInput) {
  return (
    await api.post(WHITELIST_ENDPOINT, input, {
      schema: adminWhitelistEntryAnswer,
      fallback: 'Ajout impossible.',
    })
  ).data;
}

export function removeEntry(id: string) {
  return api.delete(`${WHITELIST_ENDPOINT}/${id}`, { fallback: 'Suppression impossible.' });
}
