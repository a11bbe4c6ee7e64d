import { type RouteChoice, routeChoicesAnswer } from '@bot/contracts';
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

/** What a route reads as: its name; "…" while the list loads; "non publié" once it left the list. */
export function routeLabel(routes: readonly RouteChoice[] | undefined, id: string): string {
  if (!routes) return '…';
  return routes.find((route) => route.id === id)?.name ?? 'non publié';
}

/**
 * A route's name, for staff from the routes they may push, for a customer from those their bot may
 * follow (`routeLabel`: never its id, which means nothing to a reader).
 */
export function useRouteNames(scope: 'owner' | 'staff'): (id: string) => string {
  const routes = useQuery(scope === 'staff' ? routeChoicesQuery : ownerRoutesQuery);
  return (id: string) => routeLabel(routes.data, id);
}
