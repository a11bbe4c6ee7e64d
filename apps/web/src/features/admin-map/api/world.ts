import { type World, worldAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

const mapKeys = { world: ['admin', 'map', 'world'] as const };

/** GET /admin/world (can_manageMap): maps and areas drawn under the bots; a plain grid without it. */
export const worldQuery = queryOptions({
  queryKey: mapKeys.world,
  queryFn: async (): Promise<World | null> => {
    try {
      return (await api.get('/admin/world', { schema: worldAnswer, silent: true })).data;
    } catch {
      return null;
    }
  },
  staleTime: 5 * 60_000,
});
