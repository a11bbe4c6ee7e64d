import { routeChoicesAnswer } from '@bot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

const commandKeys = { routeChoices: ['admin', 'bots', 'route-choices'] as const };

/** The published routes staff may push (GET /admin/bots/route-choices). */
export const routeChoicesQuery = queryOptions({
  queryKey: commandKeys.routeChoices,
  queryFn: async () =>
    (
      await api.get('/admin/bots/route-choices', {
        schema: routeChoicesAnswer,
        fallback: 'Impossible de charger les itinéraires.',
      })
    ).data,
  staleTime: 60_000,
});

/**
 * A route's name from staff's route choices, its id when the route is not listed (unpublished,
 * deleted, or the list not read yet). Staff only: customers do not read the route list.
 */
export function useRouteNames(enabled = true): (id: string) => string {
  const routes = useQuery({ ...routeChoicesQuery, enabled });
  return (id: string) => routes.data?.find((route) => route.id === id)?.name ?? id;
}
