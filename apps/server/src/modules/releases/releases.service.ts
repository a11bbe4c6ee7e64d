import { createHash } from 'node:crypto';
import {
  RELEASE_PART_BYTES,
  type Release,
  type ReleaseChannel,
  type ReleaseInput,
  type ReleasePublishInput,
} from '@bot/contracts';
import { and, asc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import semver from 'semver';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { DbOrTx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { type AuditActor, writeAudit } from '../audit/audit.service.ts';
import { findBotState } from '../realtime/realtime.service.ts';
import { users } from '../users/users.table.ts';
import { agentReleaseParts, agentReleases } from './releases.table.ts';

type ReleaseRow = typeof agentReleases.$inferSelect;

function toRelease(row: ReleaseRow): Release {
  return {
    id: row.id,
    version: row.version,
    channel: row.channel,
    notes: row.notes,
    fileName: row.fileName,
    size: row.size,
    sha256: row.sha256,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    downloads: row.downloads,
  };
}

function auditTarget(row: ReleaseRow) {
  return { type: 'release', id: row.id, label: `${row.version} (${row.channel})` };
}

/** Every release, newest version first (drafts included): the staff list. */
export async function listReleases(ctx: AppContext): Promise<Release[]> {
  const rows = await ctx.db.select().from(agentReleases);
  return rows.sort((a, b) => semver.rcompare(a.version, b.version)).map(toRelease);
}

export async function createRelease(
  ctx: AppContext,
  input: ReleaseInput & { actor: AuditActor },
): Promise<Release> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(agentReleases)
        .values({
          id: newId(),
          version: input.version,
          channel: input.channel,
          notes: input.notes,
          fileName: input.fileName,
          createdBy: input.actor.id,
        })
        .returning();
      await writeAudit(tx, { actor: input.actor, action: 'release.create', target: auditTarget(row!) });
      return toRelease(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'agent_releases_version_idx')) throw new AppError('RELEASE_VERSION_TAKEN');
    throw error;
  }
}

/** The draft, locked for the transaction: parts and publication of one release never interleave. */
async function lockDraft(tx: DbOrTx, id: string, mode: 'update' | 'share'): Promise<ReleaseRow> {
  const [row] = await tx.select().from(agentReleases).where(eq(agentReleases.id, id)).for(mode);
  if (!row) throw new AppError('NOT_FOUND');
  if (row.publishedAt) throw new AppError('RELEASE_ALREADY_PUBLISHED');
  return row;
}

/** Stores one part of a draft's file; sending a part again replaces it (a retried upload). */
export async function storeReleasePart(
  ctx: AppContext,
  input: { id: string; index: number; bytes: Buffer },
): Promise<void> {
  if (input.bytes.length === 0 || input.bytes.length > RELEASE_PART_BYTES) {
    throw new AppError('RELEASE_PART_INVALID');
  }
  await ctx.db.transaction(async (tx) => {
    await lockDraft(tx, input.id, 'share');
    await tx
      .insert(agentReleaseParts)
      .values({ releaseId: input.id, index: input.index, bytes: input.bytes })
      .onConflictDoUpdate({
        target: [agentReleaseParts.releaseId, agentReleaseParts.index],
        set: { bytes: input.bytes },
      });
  });
}

/**
 * Publishes a draft once its file is whole: parts 0..n-1, each full but the last, whose SHA-256 is
 * the one the uploader computed. Parts beyond n (an abandoned earlier upload) are dropped. One
 * transaction holding the draft's lock: no part changes between the check and the publication.
 */
export async function publishRelease(
  ctx: AppContext,
  input: ReleasePublishInput & { id: string; actor: AuditActor },
): Promise<Release> {
  return ctx.db.transaction(async (tx) => {
    const draft = await lockDraft(tx, input.id, 'update');
    await tx
      .delete(agentReleaseParts)
      .where(and(eq(agentReleaseParts.releaseId, draft.id), gte(agentReleaseParts.index, input.parts)));
    const sizes = await tx
      .select({ index: agentReleaseParts.index, size: sql<number>`octet_length(${agentReleaseParts.bytes})` })
      .from(agentReleaseParts)
      .where(eq(agentReleaseParts.releaseId, draft.id))
      .orderBy(asc(agentReleaseParts.index));
    const isWhole =
      sizes.length === input.parts &&
      sizes.every(
        (part, i) => part.index === i && (i === input.parts - 1 || part.size === RELEASE_PART_BYTES),
      );
    if (!isWhole) throw new AppError('RELEASE_UPLOAD_INCOMPLETE');

    const hash = createHash('sha256');
    for await (const bytes of readParts(tx, draft.id, 0, input.parts - 1)) hash.update(bytes);
    if (hash.digest('hex') !== input.sha256) throw new AppError('RELEASE_CHECKSUM_MISMATCH');

    const size = sizes.reduce((total, part) => total + Number(part.size), 0);
    const [row] = await tx
      .update(agentReleases)
      .set({ size, sha256: input.sha256, publishedAt: new Date() })
      .where(eq(agentReleases.id, draft.id))
      .returning();
    await writeAudit(tx, {
      actor: input.actor,
      action: 'release.publish',
      target: auditTarget(row!),
      after: { size, sha256: input.sha256 },
    });
    return toRelease(row!);
  });
}

/** Withdraws a release (draft or published) and its file. */
export async function deleteRelease(
  ctx: AppContext,
  input: { id: string; actor: AuditActor },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.delete(agentReleases).where(eq(agentReleases.id, input.id)).returning();
    if (!row) throw new AppError('NOT_FOUND');
    await writeAudit(tx, {
      actor: input.actor,
      action: 'release.delete',
      target: auditTarget(row),
      before: toRelease(row),
    });
  });
}

/** The channels a follower of `channel` takes builds from: beta testers get stable fixes too. */
function channelsFollowedBy(channel: ReleaseChannel): ReleaseChannel[] {
  return channel === 'beta' ? ['stable', 'beta'] : ['stable'];
}

/** The newest published build a follower of `channel` should run, by semantic version. */
export async function latestRelease(ctx: AppContext, channel: ReleaseChannel): Promise<Release | null> {
  const rows = await ctx.db
    .select()
    .from(agentReleases)
    .where(
      and(isNotNull(agentReleases.publishedAt), inArray(agentReleases.channel, channelsFollowedBy(channel))),
    );
  const newest = rows.sort((a, b) => semver.rcompare(a.version, b.version))[0];
  return newest ? toRelease(newest) : null;
}

/** The user's bot online now and whether `latestVersion` is newer than what it runs. */
export async function runningAgentOf(
  ctx: AppContext,
  userId: string,
  latestVersion: string,
): Promise<{ version: string; isOutdated: boolean } | null> {
  const [user] = await ctx.db.select({ hwid: users.hwid }).from(users).where(eq(users.id, userId));
  const state = user?.hwid ? await findBotState(ctx, user.hwid).catch(() => undefined) : undefined;
  if (!state?.online || state.owner.id !== userId) return null;
  const isOutdated = semver.valid(state.version) !== null && semver.lt(state.version, latestVersion);
  return { version: state.version, isOutdated };
}

export async function findPublishedRelease(ctx: AppContext, id: string): Promise<Release | null> {
  const [row] = await ctx.db
    .select()
    .from(agentReleases)
    .where(and(eq(agentReleases.id, id), isNotNull(agentReleases.publishedAt)));
  return row ? toRelease(row) : null;
}

/**
 * The stored parts `first..last`, one query per part: a download holds one part in memory. A part
 * missing means the release was withdrawn meanwhile.
 */
export async function* readParts(
  db: DbOrTx,
  releaseId: string,
  first: number,
  last: number,
): AsyncGenerator<Buffer> {
  for (let index = first; index <= last; index += 1) {
    const [part] = await db
      .select({ base64: sql<string>`encode(${agentReleaseParts.bytes}, 'base64')` })
      .from(agentReleaseParts)
      .where(and(eq(agentReleaseParts.releaseId, releaseId), eq(agentReleaseParts.index, index)));
    if (!part) throw new AppError('NOT_FOUND');
    yield Buffer.from(part.base64, 'base64');
  }
}

export async function countDownload(ctx: AppContext, id: string): Promise<void> {
  await ctx.db
    .update(agentReleases)
    .set({ downloads: sql`${agentReleases.downloads} + 1` })
    .where(eq(agentReleases.id, id));
}
