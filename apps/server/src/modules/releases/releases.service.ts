import { createHash } from 'node:crypto';
import {
  RELEASE_DRAFT_TTL_MS,
  RELEASE_DRAFTS_PER_STAFF,
  RELEASE_PART_BYTES,
  type Release,
  type ReleaseDraftInput,
  type ReleasePublishInput,
  releasePartCount,
} from '@bot/contracts';
import { and, asc, count, eq, gte, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import semver from 'semver';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { getSettings } from '../settings/index.ts';
import { users } from '../users/index.ts';
import { agentReleaseParts, agentReleases } from './releases.table.ts';

export type ReleaseRow = typeof agentReleases.$inferSelect;

export function toRelease(row: ReleaseRow): Release {
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
    minAgentVersion: row.minAgentVersion,
    rollout: {
      state: row.rolloutState,
      percent: row.rolloutPercent,
      steps: row.rolloutSteps,
      changedAt: row.rolloutChangedAt?.toISOString() ?? null,
      halt: row.rolloutHalt ?? null,
      yankReason: row.yankReason,
    },
  };
}

export function auditTarget(row: ReleaseRow) {
  return { type: 'release', id: row.id, label: `${row.version} (${row.channel})` };
}

/** Every release, newest version first (drafts included): the staff list. */
export async function listReleases(ctx: AppContext): Promise<Release[]> {
  await expireStaleDrafts(ctx);
  const rows = await ctx.db.select().from(agentReleases);
  return rows.sort((a, b) => semver.rcompare(a.version, b.version)).map(toRelease);
}

/**
 * Starts a draft that declares its file's size. Expired drafts go first (they neither count nor
 * keep their version); a staff member holds at most `RELEASE_DRAFTS_PER_STAFF` drafts, counted
 * under a lock of their user row so that parallel creations cannot pass the cap together.
 */
export async function createRelease(
  ctx: AppContext,
  input: Omit<ReleaseDraftInput, 'minAgentVersion'> & { minAgentVersion?: string | null; actor: AuditActor },
): Promise<Release> {
  await expireStaleDrafts(ctx);
  try {
    return await inTransaction(ctx, async (tx) => {
      const authorId = input.actor.id;
      if (authorId) {
        await tx.db.select({ id: users.id }).from(users).where(eq(users.id, authorId)).for('no key update');
        const [drafts] = await tx.db
          .select({ count: count() })
          .from(agentReleases)
          .where(and(eq(agentReleases.createdBy, authorId), isNull(agentReleases.publishedAt)));
        if ((drafts?.count ?? 0) >= RELEASE_DRAFTS_PER_STAFF) throw new AppError('RELEASE_DRAFTS_LIMIT');
      }
      const [row] = await tx.db
        .insert(agentReleases)
        .values({
          id: newId(),
          version: input.version,
          channel: input.channel,
          notes: input.notes,
          fileName: input.fileName,
          minAgentVersion: input.minAgentVersion ?? null,
          size: input.size,
          createdBy: authorId,
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
async function lockDraft(ctx: AppContext, id: string, mode: 'update' | 'share'): Promise<ReleaseRow> {
  const [row] = await ctx.db.select().from(agentReleases).where(eq(agentReleases.id, id)).for(mode);
  if (!row) throw new AppError('NOT_FOUND');
  if (row.publishedAt) throw new AppError('RELEASE_ALREADY_PUBLISHED');
  return row;
}

/**
 * Stores one part of a draft's file; sending a part again replaces it (a retried upload). A part
 * past the end of the declared size is refused: a draft never holds more than its file.
 */
export async function storeReleasePart(
  ctx: AppContext,
  input: { id: string; index: number; bytes: Buffer },
): Promise<void> {
  if (input.bytes.length === 0 || input.bytes.length > RELEASE_PART_BYTES) {
    throw new AppError('RELEASE_PART_INVALID');
  }
  await inTransaction(ctx, async (tx) => {
    const draft = await lockDraft(tx, input.id, 'share');
    // Drafts started before sizes were declared have none: the part limit of the route applies.
    const parts = draft.size === null ? undefined : releasePartCount(draft.size);
    if (parts !== undefined && input.index >= parts)
      throw new AppError('RELEASE_PART_BEYOND_END', { details: { parts } });
    await tx.db
      .insert(agentReleaseParts)
      .values({ releaseId: input.id, index: input.index, bytes: input.bytes })
      .onConflictDoUpdate({
        target: [agentReleaseParts.releaseId, agentReleaseParts.index],
        set: { bytes: input.bytes },
      });
  });
}

/**
 * Publishes a draft once its file is whole: parts 0..n-1, each full but the last, as many bytes as
 * the draft declared, whose SHA-256 is the one the uploader computed. Parts beyond n (an abandoned
 * earlier upload) are dropped. One transaction holding the draft's lock: no part changes between
 * the check and the publication.
 */
export async function publishRelease(
  ctx: AppContext,
  input: ReleasePublishInput & { id: string; actor: AuditActor },
): Promise<Release> {
  return inTransaction(ctx, async (tx) => {
    const draft = await lockDraft(tx, input.id, 'update');
    await tx.db
      .delete(agentReleaseParts)
      .where(and(eq(agentReleaseParts.releaseId, draft.id), gte(agentReleaseParts.index, input.parts)));
    const sizes = await tx.db
      .select({ index: agentReleaseParts.index, size: sql<number>`octet_length(${agentReleaseParts.bytes})` })
      .from(agentReleaseParts)
      .where(eq(agentReleaseParts.releaseId, draft.id))
      .orderBy(asc(agentReleaseParts.index));
    const size = sizes.reduce((total, part) => total + Number(part.size), 0);
    const isWhole =
      sizes.length === input.parts &&
      (draft.size === null || size === draft.size) &&
      sizes.every(
        (part, i) => part.index === i && (i === input.parts - 1 || part.size === RELEASE_PART_BYTES),
      );
    if (!isWhole) throw new AppError('RELEASE_UPLOAD_INCOMPLETE');

    const hash = createHash('sha256');
    for await (const bytes of readParts(tx, draft.id, 0, input.parts - 1)) hash.update(bytes);
    if (hash.digest('hex') !== input.sha256) throw new AppError('RELEASE_CHECKSUM_MISMATCH');

    // Offered to a share of the channel first (decision 910), raised by staff or by steps.
    const percent = (await getSettings(tx)).releaseRolloutPercent;
    const now = new Date();
    const [row] = await tx.db
      .update(agentReleases)
      .set({
        size,
        sha256: input.sha256,
        publishedAt: now,
        rolloutState: percent >= 100 ? 'complete' : 'rolling',
        rolloutPercent: percent,
        rolloutChangedAt: now,
      })
      .where(eq(agentReleases.id, draft.id))
      .returning();
    await writeAudit(tx, {
      actor: input.actor,
      action: 'release.publish',
      target: auditTarget(row!),
      after: { size, sha256: input.sha256, rolloutPercent: percent },
    });
    return toRelease(row!);
  });
}

/** Withdraws a release (draft or published) and its file. */
export async function deleteRelease(
  ctx: AppContext,
  input: { id: string; actor: AuditActor },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.delete(agentReleases).where(eq(agentReleases.id, input.id)).returning();
    if (!row) throw new AppError('NOT_FOUND');
    await writeAudit(tx, {
      actor: input.actor,
      action: 'release.delete',
      target: auditTarget(row),
      before: toRelease(row),
    });
  });
}

/**
 * Deletes drafts not published within `RELEASE_DRAFT_TTL_MS` of their start, with their parts, each
 * audited (run periodically and before the staff list and a new draft). A draft published or
 * receiving a part meanwhile holds its lock: the delete waits, then skips a published one.
 */
export async function expireStaleDrafts(ctx: AppContext): Promise<number> {
  const stale = await ctx.db
    .select({ id: agentReleases.id })
    .from(agentReleases)
    .where(
      and(
        isNull(agentReleases.publishedAt),
        lte(agentReleases.createdAt, new Date(Date.now() - RELEASE_DRAFT_TTL_MS)),
      ),
    )
    .limit(100);
  let expired = 0;
  for (const { id } of stale) {
    await inTransaction(ctx, async (tx) => {
      const [row] = await tx.db
        .delete(agentReleases)
        .where(and(eq(agentReleases.id, id), isNull(agentReleases.publishedAt)))
        .returning();
      if (!row) return;
      expired += 1;
      await writeAudit(tx, {
        actor: { id: null, username: null, ip: null },
        action: 'release.expire',
        target: auditTarget(row),
        before: toRelease(row),
      });
    });
  }
  if (expired > 0) ctx.log.info({ expired }, 'brouillons de version expirés supprimés');
  return expired;
}

/** The user's bot online now and whether `latestVersion` is newer than what it runs. */
export async function runningAgentOf(
  ctx: AppContext,
  userId: string,
  latestVersion: string,
): Promise<{ version: string; isOutdated: boolean } | null> {
  const [user] = await ctx.db.select({ hwid: users.hwid }).from(users).where(eq(users.id, userId));
  const state = user?.hwid ? await ctx.live.botState(user.hwid).catch(() => undefined) : undefined;
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
  ctx: AppContext,
  releaseId: string,
  first: number,
  last: number,
): AsyncGenerator<Buffer> {
  for (let index = first; index <= last; index += 1) {
    const [part] = await ctx.db
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
