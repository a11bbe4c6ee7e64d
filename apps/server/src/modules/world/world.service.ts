import {
  type BotRoute,
  mapIdOf,
  type Route,
  type RouteChoice,
  type RouteInput,
  type RouteKind,
  type RouteStep,
  type RouteStepInput,
  type RoutesQuery,
  type RouteUpdateInput,
  WORLD_MAX_COORD,
  WORLD_MIN_COORD,
  type World,
} from '@bot/contracts';
import { and, asc, count, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { inBatches, likePattern, orderOf, pageOf } from '../../core/admin-list.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { getUserPermissions } from '../access/index.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { type BotRouteRow, botRoutes, worldAreas, worldMaps } from './world.table.ts';

/** The 3×3 regions of the seeded grid, west to east, north to south. */
const SEED_AREAS = [
  { id: 1, name: 'Plaines du Nord', color: '#8bc34a' },
  { id: 2, name: "Forêt d'Émeraude", color: '#2e7d32' },
  { id: 3, name: 'Monts Gelés', color: '#90caf9' },
  { id: 4, name: 'Marais Brumeux', color: '#607d8b' },
  { id: 5, name: 'Cité Centrale', color: '#ffb300' },
  { id: 6, name: 'Collines Dorées', color: '#fdd835' },
  { id: 7, name: 'Côte des Brisants', color: '#26c6da' },
  { id: 8, name: 'Vallée des Cendres', color: '#8d6e63' },
  { id: 9, name: 'Désert Rouge', color: '#e64a19' },
];

const SPAN = WORLD_MAX_COORD - WORLD_MIN_COORD + 1;

/** The area of a cell: the grid cut in three bands on each axis. Deterministic. */
export function seedAreaOf(x: number, y: number): number {
  const column = Math.min(2, Math.floor(((x - WORLD_MIN_COORD) * 3) / SPAN));
  const row = Math.min(2, Math.floor(((y - WORLD_MIN_COORD) * 3) / SPAN));
  return row * 3 + column + 1;
}

/** Seeds the world grid once (idempotent, safe when several nodes start together). */
export async function seedWorld(ctx: AppContext): Promise<void> {
  const [existing] = await ctx.db.select({ total: count() }).from(worldMaps);
  if ((existing?.total ?? 0) >= SPAN * SPAN) return;
  await ctx.db.insert(worldAreas).values(SEED_AREAS).onConflictDoNothing();
  // One statement (generate_series) instead of 6,561 parameters: ~1 s -> a few ms on PGlite, and every
  // test server seeds its fresh database. Same formulas as `mapIdOf` and `seedAreaOf`.
  const min = WORLD_MIN_COORD;
  const max = WORLD_MAX_COORD;
  await ctx.db.execute(sql`
    insert into ${worldMaps} (id, x, y, area_id)
    select (gx + 1000) * 10000 + (gy + 1000), gx, gy,
      least(2, ((gy - ${min}) * 3) / ${SPAN}) * 3 + least(2, ((gx - ${min}) * 3) / ${SPAN}) + 1
    from generate_series(${min}::int, ${max}::int) as gx, generate_series(${min}::int, ${max}::int) as gy
    on conflict do nothing`);
}

/** The whole grid with its areas (the admin map and the route editor draw it). */
export async function getWorld(ctx: AppContext): Promise<World> {
  const areas = await ctx.db.select().from(worldAreas).orderBy(asc(worldAreas.id));
  const maps = await ctx.db.select().from(worldMaps).orderBy(asc(worldMaps.y), asc(worldMaps.x));
  let [minX, maxX, minY, maxY] = [0, 0, 0, 0];
  for (const map of maps) {
    minX = Math.min(minX, map.x);
    maxX = Math.max(maxX, map.x);
    minY = Math.min(minY, map.y);
    maxY = Math.max(maxY, map.y);
  }
  return { bounds: { minX, maxX, minY, maxY }, areas, maps };
}

/** Fills each step's map id and coordinates from the grid; a step off the grid is a 400. */
async function resolveSteps(ctx: AppContext, steps: RouteStepInput[]): Promise<RouteStep[]> {
  if (steps.length === 0) return [];
  const ids = [...new Set(steps.map((step) => step.mapId ?? mapIdOf(step.x ?? 0, step.y ?? 0)))];
  const found = await ctx.db.select().from(worldMaps).where(inArray(worldMaps.id, ids));
  const byId = new Map(found.map((map) => [map.id, map]));
  return steps.map((step, index) => {
    const map = byId.get(step.mapId ?? mapIdOf(step.x ?? 0, step.y ?? 0));
    if (!map || (step.x !== undefined && step.x !== map.x) || (step.y !== undefined && step.y !== map.y)) {
      throw new AppError('UNKNOWN_MAP', { details: { step: index } });
    }
    return { mapId: map.id, x: map.x, y: map.y, action: step.action };
  });
}

function toBotRoute(row: BotRouteRow): BotRoute {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    steps: row.steps as RouteStep[],
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toRoute(row: BotRouteRow): Route {
  return {
    ...toBotRoute(row),
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedByUsername: row.updatedByUsername,
  };
}

function routeFilterOf(query: Partial<RoutesQuery>): SQL | undefined {
  return and(
    query.q ? ilike(botRoutes.name, likePattern(query.q)) : undefined,
    query.kind ? eq(botRoutes.kind, query.kind) : undefined,
    query.status ? eq(botRoutes.status, query.status) : undefined,
  );
}

const ROUTE_SORTS = {
  name: botRoutes.name,
  kind: botRoutes.kind,
  status: botRoutes.status,
  updatedAt: botRoutes.updatedAt,
  createdAt: botRoutes.createdAt,
};

export async function listRoutes(
  ctx: AppContext,
  query: RoutesQuery,
): Promise<{ data: Route[]; total: number }> {
  const where = routeFilterOf(query);
  const { limit, offset } = pageOf(query);
  const rows = await ctx.db
    .select()
    .from(botRoutes)
    .where(where)
    .orderBy(orderOf(query.sort, ROUTE_SORTS, desc(botRoutes.updatedAt)), asc(botRoutes.id))
    .limit(limit)
    .offset(offset);
  const [counted] = await ctx.db.select({ total: count() }).from(botRoutes).where(where);
  return { data: rows.map(toRoute), total: counted?.total ?? 0 };
}

const ROUTE_CHOICES_MAX = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Of these route ids, the kind of each published one (what a configuration may name). */
export async function publishedRouteKinds(
  ctx: AppContext,
  ids: readonly string[],
): Promise<Map<string, RouteKind>> {
  // Route ids are UUIDs: anything else names no route (and must not reach a uuid comparison).
  const candidates = ids.filter((id) => UUID.test(id));
  if (candidates.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: botRoutes.id, kind: botRoutes.kind })
    .from(botRoutes)
    .where(and(inArray(botRoutes.id, candidates), eq(botRoutes.status, 'published')));
  return new Map(rows.map((row) => [row.id, row.kind]));
}

/** The published routes' names (of these kinds only, when given): what a configuration may name. */
export async function listRouteChoices(ctx: AppContext, kinds?: RouteKind[]): Promise<RouteChoice[]> {
  if (kinds?.length === 0) return [];
  return ctx.db
    .select({ id: botRoutes.id, name: botRoutes.name, kind: botRoutes.kind })
    .from(botRoutes)
    .where(and(eq(botRoutes.status, 'published'), kinds ? inArray(botRoutes.kind, kinds) : undefined))
    .orderBy(asc(botRoutes.name), asc(botRoutes.id))
    .limit(ROUTE_CHOICES_MAX);
}

export function streamRoutes(ctx: AppContext, query: Partial<RoutesQuery>): AsyncIterable<Route> {
  const where = routeFilterOf(query);
  return inBatches(async (offset, limit) =>
    (
      await ctx.db
        .select()
        .from(botRoutes)
        .where(where)
        .orderBy(asc(botRoutes.createdAt), asc(botRoutes.id))
        .limit(limit)
        .offset(offset)
    ).map(toRoute),
  );
}

async function getRouteRow(ctx: AppContext, routeId: string): Promise<BotRouteRow> {
  const [row] = await ctx.db.select().from(botRoutes).where(eq(botRoutes.id, routeId));
  if (!row) throw new AppError('ITINERARY_NOT_FOUND');
  return row;
}

export async function getRoute(ctx: AppContext, routeId: string): Promise<Route> {
  return toRoute(await getRouteRow(ctx, routeId));
}

const auditView = (route: Route) => ({
  name: route.name,
  kind: route.kind,
  status: route.status,
  stepCount: route.steps.length,
});

export async function createRoute(
  ctx: AppContext,
  input: { route: RouteInput; actor: AuditActor },
): Promise<Route> {
  return inTransaction(ctx, async (tx) => {
    const steps = await resolveSteps(tx, input.route.steps);
    const [row] = await tx.db
      .insert(botRoutes)
      .values({
        id: newId(),
        name: input.route.name,
        kind: input.route.kind,
        status: input.route.status ?? 'draft',
        steps,
        updatedById: input.actor.id,
        updatedByUsername: input.actor.username,
      })
      .returning();
    const route = toRoute(row!);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'route.create',
      target: { type: 'route', id: route.id, label: route.name },
      after: auditView(route),
    });
    return route;
  });
}

/** Edits a route (name, kind, steps) or publishes / unpublishes it. */
export async function updateRoute(
  ctx: AppContext,
  input: { routeId: string; patch: RouteUpdateInput; actor: AuditActor },
): Promise<Route> {
  return inTransaction(ctx, async (tx) => {
    const before = toRoute(await getRouteRow(tx, input.routeId));
    const { steps, ...rest } = input.patch;
    const [row] = await tx.db
      .update(botRoutes)
      .set({
        ...rest,
        ...(steps !== undefined ? { steps: await resolveSteps(tx, steps) } : {}),
        updatedAt: new Date(),
        updatedById: input.actor.id,
        updatedByUsername: input.actor.username,
      })
      .where(eq(botRoutes.id, input.routeId))
      .returning();
    const after = toRoute(row!);
    await writeAudit(tx, {
      actor: input.actor,
      action: 'route.update',
      target: { type: 'route', id: after.id, label: after.name },
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });
}

export async function deleteRoute(
  ctx: AppContext,
  input: { routeId: string; actor: AuditActor },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const route = toRoute(await getRouteRow(tx, input.routeId));
    await tx.db.delete(botRoutes).where(eq(botRoutes.id, input.routeId));
    await writeAudit(tx, {
      actor: input.actor,
      action: 'route.delete',
      target: { type: 'route', id: route.id, label: route.name },
      before: auditView(route),
    });
  });
}

/** Which route kinds a user's permissions unlock: their bot fetches only these (`/bot/routes`). */
export async function routeKindsOf(ctx: AppContext, userId: string): Promise<RouteKind[]> {
  const permissions = await getUserPermissions(ctx, userId);
  const kinds: RouteKind[] = [];
  if (permissions.includes('can_useGathering')) kinds.push('gathering');
  if (permissions.includes('can_useTreasure')) kinds.push('treasure');
  return kinds;
}

/** The published routes of the given kinds (what a bot may follow). */
export async function listPublishedRoutes(ctx: AppContext, kinds: RouteKind[]): Promise<BotRoute[]> {
  if (kinds.length === 0) return [];
  const rows = await ctx.db
    .select()
    .from(botRoutes)
    .where(and(eq(botRoutes.status, 'published'), inArray(botRoutes.kind, kinds)))
    .orderBy(asc(botRoutes.name));
  return rows.map(toBotRoute);
}
