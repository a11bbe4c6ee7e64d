import { routeChoicesAnswer } from '@bot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

// Plain string arrays: one `useQuery` takes either list's options.
const routeKeys: Record<'staff' | 'owner', string[]> = {
  staff: ['admin', 'bots', 'route-choices'],
  owner: ['me', 'bot', 'routes'],
};

/** The published routes staff may push (GET /admin/bots/route-choices). */
export const routeChoicesQuery = queryOptions({
  queryKey: routeKeys.staff,
  queryFn: async () =>
    (
      await api.get('/admin/bots/route-choices', {
        schema: routeChoicesAnswer,
        fallback: 'Impossible de charger les itinéraires.',
      })
    ).data,
  staleTime: 60_000,
});

/** The published routes the customer's bot may follow (GET /me/bot/routes): their names. */
const ownerRoutesQuery = queryOptions({
  queryKey: routeKeys.owner,
  queryFn: async () =>
    (
      await api.get('/me/bot/routes', {
        schema: routeChoicesAnswer,
        fallback: 'Impossible de charger les itinéraires.',
      })
    ).data,
  staleTime: 60_000,
});

/**
 * A route's name, for staff from the routes they may push, for a customer from those their bot may
 * follow; its id when the route is not listed (unpublished, deleted, or the list not read yet).
 */
export function useRouteNames(scope: 'owner' | 'staff'): (id: string) => string {
  const routes = useQuery(scope === 'staff' ? routeChoicesQuery : ownerRoutesQuery);
  return (id: string) => routes.data?.find((route) => route.id === id)?.name ?? id;
}
