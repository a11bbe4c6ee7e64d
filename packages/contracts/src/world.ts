import { z } from 'zod';
import { listQuery } from './admin.ts';
import { int32 } from './numbers.ts';

/** The seeded world grid spans these coordinates on both axes. */
export const WORLD_MIN_COORD = -40;
export const WORLD_MAX_COORD = 40;

/** A map's id from its coordinates: stable, so bots, routes and the admin map agree. */
export function mapIdOf(x: number, y: number): number {
  return (x + 1000) * 10_000 + (y + 1000);
}

export const worldAreaSchema = z.object({ id: z.number().int(), name: z.string(), color: z.string() });
export type WorldArea = z.infer<typeof worldAreaSchema>;
export const worldMapSchema = z.object({
  id: z.number().int(),
  x: z.number().int(),
  y: z.number().int(),
  areaId: z.number().int(),
});
export type WorldMap = z.infer<typeof worldMapSchema>;
export const worldAnswer = z.object({
  data: z.object({
    bounds: z.object({ minX: z.number(), maxX: z.number(), minY: z.number(), maxY: z.number() }),
    areas: z.array(worldAreaSchema),
    maps: z.array(worldMapSchema),
  }),
});
export type World = z.infer<typeof worldAnswer>['data'];

export const ROUTE_KINDS = ['gathering', 'treasure'] as const;
export type RouteKind = (typeof ROUTE_KINDS)[number];
export const ROUTE_KIND_LABELS: Record<RouteKind, string> = {
  gathering: 'Récolte',
  treasure: 'Chasse au trésor',
};
export const ROUTE_STATUSES = ['draft', 'published'] as const;
export type RouteStatus = (typeof ROUTE_STATUSES)[number];
export const ROUTE_STATUS_LABELS: Record<RouteStatus, string> = { draft: 'Brouillon', published: 'Publié' };
export const ROUTE_ACTIONS = ['move', 'gather', 'dig', 'fight', 'bank'] as const;
export type RouteAction = (typeof ROUTE_ACTIONS)[number];
export const ROUTE_ACTION_LABELS: Record<RouteAction, string> = {
  move: 'Se déplacer',
  gather: 'Récolter',
  dig: 'Chercher un trésor',
  fight: 'Combattre',
  bank: 'Aller à la banque',
};

const coord = z.number().int().min(-1000).max(1000);
export const routeStepSchema = z.object({
  mapId: int32(),
  x: coord,
  y: coord,
  action: z.enum(ROUTE_ACTIONS),
});
export type RouteStep = z.infer<typeof routeStepSchema>;

/** A step names its map by id or by coordinates; the server fills in the other. */
export const routeStepInput = z
  .strictObject({
    mapId: int32().optional(),
    x: coord.optional(),
    y: coord.optional(),
    action: z.enum(ROUTE_ACTIONS),
  })
  .refine((step) => step.mapId !== undefined || (step.x !== undefined && step.y !== undefined), {
    message: 'Chaque étape doit désigner une carte (mapId ou x et y).',
  });
export type RouteStepInput = z.infer<typeof routeStepInput>;

export const routeInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(2, "Le nom de l'itinéraire doit contenir au moins 2 caractères.")
    .max(60, "Le nom de l'itinéraire doit contenir au plus 60 caractères."),
  kind: z.enum(ROUTE_KINDS),
  status: z.enum(ROUTE_STATUSES).default('draft'),
  steps: z.array(routeStepInput).max(500, 'Un itinéraire compte au plus 500 étapes.'),
});
export type RouteInput = z.input<typeof routeInput>;
export const routeUpdateInput = z.strictObject({
  name: routeInput.shape.name.optional(),
  kind: z.enum(ROUTE_KINDS).optional(),
  status: z.enum(ROUTE_STATUSES).optional(),
  steps: routeInput.shape.steps.optional(),
});
export type RouteUpdateInput = z.infer<typeof routeUpdateInput>;

export const botRouteSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(ROUTE_KINDS),
  steps: z.array(routeStepSchema),
  updatedAt: z.string(),
});
export type BotRoute = z.infer<typeof botRouteSchema>;
export const routeSchema = botRouteSchema.extend({
  status: z.enum(ROUTE_STATUSES),
  createdAt: z.string(),
  updatedByUsername: z.string().nullable(),
});
export type Route = z.infer<typeof routeSchema>;
export const routesQuery = listQuery.extend({
  kind: z.enum(ROUTE_KINDS).optional(),
  status: z.enum(ROUTE_STATUSES).optional(),
});
export type RoutesQuery = z.infer<typeof routesQuery>;
