import type { ReleaseHealth, RolloutState, RolloutStep } from '@bot/contracts';
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
import { json } from '../../db/json-column.ts';
import { users } from '../users/index.ts';

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
    /** The oldest agent able to install this build itself (told in the signed manifest). */
    minAgentVersion: text('min_agent_version'),
    /**
     * Staged rollout (decision 910): the share of the channel's bots offered this build, how it
     * rises, and its state. Builds from before rollouts are `complete` at 100 %.
     */
    rolloutState: text('rollout_state', { enum: ['rolling', 'paused', 'halted', 'complete', 'yanked'] })
      .$type<RolloutState>()
      .notNull()
      .default('complete'),
    rolloutPercent: integer('rollout_percent').notNull().default(100),
    rolloutSteps: json('rollout_steps').$type<RolloutStep[]>().notNull().default([]),
    /** When the share last changed (the next step counts from it). */
    rolloutChangedAt: timestamp('rollout_changed_at', { withTimezone: true }),
    /** Why the rollout halted itself: the figures of both versions side by side. */
    rolloutHalt: json('rollout_halt').$type<ReleaseHealth>(),
    yankReason: text('yank_reason'),
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

/**
 * An agent that put an update off (`client.deferUpdate`): staff see who waits and until when. One
 * row per PC, the latest deferral.
 */
export const agentUpdateDeferrals = pgTable('agent_update_deferrals', {
  hwid: text('hwid').primaryKey(),
  version: text('version').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
});

/** Bots online per agent version, sampled every few minutes: the releases page's adoption. */
export const agentVersionSamples = pgTable(
  'agent_version_samples',
  {
    at: timestamp('at', { withTimezone: true }).notNull(),
    version: text('version').notNull(),
    bots: integer('bots').notNull(),
  },
  (t) => [primaryKey({ columns: [t.at, t.version] })],
);
