import { dataAnswer, type SettingsUpdateInput, siteSettingsSchema } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const settingsKeys = { all: ['admin-settings'] as const };

export const adminSettingsQuery = queryOptions({
  queryKey: settingsKeys.all,
  queryFn: async () =>
    (
      await api.get('/admin/settings', {
        schema: dataAnswer(siteSettingsSchema),
        fallback: 'Impossible de charger les paramètres.',
      })
    ).data,
});

export async function saveSettings(patch: SettingsUpdateInput) {
  return (
    await api.put('/admin/settings', patch, {
      schema: dataAnswer(siteSettingsSchema),
      fallback: "L'enregistrement des paramètres a échoué.",
    })
  ).data;
}
