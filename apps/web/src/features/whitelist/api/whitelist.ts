import { myWhitelistAnswer, whitelistEntryAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

const whitelistKeys = { mine: ['me', 'whitelist'] as const };

export const myWhitelistQuery = queryOptions({
  queryKey: whitelistKeys.mine,
  queryFn: () =>
    api.get('/me/whitelist', {
      schema: myWhitelistAnswer,
      fallback: 'Impossible de charger votre liste blanche.',
    }),
});

export async function addToWhitelist(name: string) {
  return (
    await api.post('/me/whitelist', { name }, { schema: whitelistEntryAnswer, fallback: 'Ajout impossible.' })
  ).data;
}

export function removeFromWhitelist(id: string) {
  return api.delete(`/me/whitelist/${id}`, { fallback: 'Suppression impossible.' });
}
