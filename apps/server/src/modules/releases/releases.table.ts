import { sql } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';

/**
 * File bytes travel as base64 and PostgreSQL decodes them: PGlite's own bytea encoding measured 9×
 * slower to write and 14× slower to read (a 4 MiB part: 1.9 s against 0.21 s, 0.42 s against 0.03 s).
 * Read them with `encode(bytes, 'base64')` for the same reason.
 */
const bytea = customType<{ data: Buffer; driverData: string }>({
  dataType: () => 'bytea',
  toDriver: (value) => sql`decode(${value.toString('base64')}, 'base64')`,
});

/** A build of the bot agent. A draft (`publishedAt` null) waits for its file's parts. */
export const agentReleases = pgTable(
  'agent_releases',
  {
    id: uuid('id').primaryKey(),
    version: text('version').notNull(),
    channel: text('channel', { enum: ['stable', 'beta'] }).notNull(),
    notes: text('notes').notNull().default(''),
    fileName: text('file_name').notNull(),
    size: integer('size'),
    sha256: text('sha256'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    downloads: integer('downloads').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('agent_releases_version_idx').on(t.version),
    index('agent_releases_published_idx').on(t.channel, t.publishedAt),
  ],
);

/**
 * The file, in the database every node reads (decision 900): parts of `RELEASE_PART_BYTES`, so a
 * Range request reads only the parts it covers and an upload resumes at the part that failed.
 */
export const agentReleaseParts = pgTable(
  'agent_release_parts',
  {
    releaseId: uuid('release_id')
      .notNull()
      .references(() => agentReleases.id, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.index] })],
);
