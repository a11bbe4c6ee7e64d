import {
  type MaintenanceWindow,
  type MaintenanceWindowInput,
  maintenanceWindowAnswer,
  maintenanceWindowsAnswer,
} from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const maintenanceWindowsKeys = { all: ['admin-maintenance-windows'] as const };

/** Scheduled, running and past maintenance windows (decision 907), latest start first. */
export const maintenanceWindowsQuery = queryOptions({
  queryKey: maintenanceWindowsKeys.all,
  queryFn: async () =>
    (
      await api.get('/admin/maintenance-windows', {
        schema: maintenanceWindowsAnswer,
        fallback: 'Impossible de charger les fenêtres de maintenance.',
      })
    ).data,
  refetchInterval: 30_000,
});

export async function scheduleMaintenanceWindow(input: MaintenanceWindowInput): Promise<MaintenanceWindow> {
  return (
    await api.post('/admin/maintenance-windows', input, {
      schema: maintenanceWindowAnswer,
      fallback: 'La fenêtre de maintenance n’a pas pu être programmée.',
    })
  ).data;
}

export async function cancelMaintenanceWindow(id: string): Promise<MaintenanceWindow> {
  return (
    await api.post(`/admin/maintenance-windows/${encodeURIComponent(id)}/cancel`, undefined, {
      schema: maintenanceWindowAnswer,
      fallback: 'L’annulation de la fenêtre de maintenance a échoué.',
    })
  ).data;
}
