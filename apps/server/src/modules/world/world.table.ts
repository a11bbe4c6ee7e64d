import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { json } from '../../db/json-column.ts';

/** Named areas of the world grid (seeded at first start). */
export const worldAreas = pgTable('world_areas', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  color: text('color').notNull(),
});

/** One map per grid cell; its id comes from its coordinates (`mapIdOf` in contracts). */
export const worldMaps = pgTable(
  'world_maps',
  {
    id: integer('id').primaryKey(),
    x: integer('x').notNull(),
    y: integer('y').notNull(),
    areaId: integer('area_id')
      .notNull()
      .references(() => worldAreas.id),
  },
  (t) => [uniqueIndex('world_maps_xy_idx').on(t.x, t.y)],
);

/** Routes bots follow: ordered steps on the grid with an action each. */
export const botRoutes = pgTable(
  'bot_routes',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['gathering', 'treasure'] }).notNull(),
    status: text('status', { enum: ['draft', 'published'] })
      .notNull()
      .default('draft'),
    steps: json('steps').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedById: uuid('updated_by_id'),
    updatedByUsername: text('updated_by_username'),
  },
  (t) => [
    index('bot_routes_status_kind_idx').on(t.status, t.kind),
    index('bot_routes_updated_idx').on(t.updatedAt),
  ],
);

export type BotRouteRow = typeof botRoutes.$inferSelect;
