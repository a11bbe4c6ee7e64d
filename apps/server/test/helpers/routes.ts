import type { RouteKind } from '@bot/contracts';
import { newId } from '../../src/core/ids.ts';
import { createRoute } from '../../src/modules/world/index.ts';
import type { TestServer } from '../harness.ts';

/** A published route (what a configuration push may name), made through the world's use case. */
export async function publishedRoute(
  server: Pick<TestServer, 'ctx'>,
  name = `Route ${newId().slice(-6)}`,
  kind: RouteKind = 'gathering',
): Promise<string> {
  const route = await createRoute(server.ctx, {
    route: { name, kind, status: 'published', steps: [] },
    actor: { id: null, username: null, ip: null },
  });
  return route.id;
}
