import { dataAnswer, type RouteInput, type RouteUpdateInput, routeSchema, worldAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const ROUTES_ENDPOINT = '/admin/routes';

const routeKeys = { world: ['admin', 'routes', 'world'] as const };

/** GET /admin/world: the grid the steps are picked on (it changes only with a new seed). */
export const routeWorldQuery = queryOptions({
  queryKey: routeKeys.world,
  queryFn: async () =>
    (
      await api.get('/admin/world', {
        schema: worldAnswer,
        fallback: 'Impossible de charger la carte du monde.',
      })
    ).data,
  staleTime: 5 * 60_000,
});

const answer = dataAnswer(routeSchema);
export async function createRoute(input: RouteInput) {
  return (
    await api.post(ROUTES_ENDPOINT, input, { schema: answer, fallback: "Création de l'itinéraire échouée." })
  ).data;
}
export async function updateRoute(id: string, input: RouteUpdateInput) {
  return (
    await api.put(`${ROUTES_ENDPOINT}/${id}`, input, {
      schema: answer,
      fallback: "Modification de l'itinéraire échouée.",
    })
  ).data;
}
export function deleteRoute(id: string) {
  return api.delete(`${ROUTES_ENDPOINT}/${id}`, { fallback: "Suppression de l'itinéraire échouée." });
}
