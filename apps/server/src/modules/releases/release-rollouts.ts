import { createHash } from 'node:crypto';
import {
  type AgentUpdate,
  RELEASE_MANIFEST_TYPE,
  type Release,
  type ReleaseChannel,
  type ReleaseManifest,
  type ReleaseRolloutInput,
} from '@bot/contracts';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { SignJWT } from 'jose';
import semver from 'semver';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { currentSigner } from '../licensing/index.ts';
import { downloadLink } from './release-downloads.ts';
import { auditTarget, type ReleaseRow, toRelease } from './releases.service.ts';
import { agentReleases } from './releases.table.ts';

/** How long a manifest (and the download address it carries) stays valid. */
const MANIFEST_TTL_MS = 24 * 3_600_000;
/** Where an owner downloads a build by hand. */
const DOWNLOAD_PAGE = '/started';

/** The channels a follower of `channel` takes builds from: beta testers get stable fixes too. */
function channelsFollowedBy(channel: ReleaseChannel): ReleaseChannel[] {
  return channel === 'beta' ? ['stable', 'beta'] : ['stable'];
}

/**
 * A PC's place in a release's rollout, 0 to 99: the same on every node and after every restart (a
 * hash of the release and the hwid), and independent from one release to the next.
 */
export function rolloutBucket(releaseId: string, hwid: string): number {
  return createHash('sha256').update(`${releaseId}:${hwid}`).digest().readUInt32BE(0) % 100;
}

/**
 * Whether a build is offered to a PC: to all once complete, to its share while rolling or paused
 * (paused only stops the steps), to nobody once halted or yanked. A PC not bound yet (`null`: a
 * customer's first download) gets complete builds only.
 */
function isOffered(row: ReleaseRow, hwid: string | null): boolean {
  if (row.rolloutState === 'complete') return true;
  if (row.rolloutState !== 'rolling' && row.rolloutState !== 'paused') return false;
  return hwid !== null && rolloutBucket(row.id, hwid) < row.rolloutPercent;
}

/** Published builds a follower of `channel` may get, newest version first. */
async function publishedFor(ctx: AppContext, channel: ReleaseChannel): Promise<ReleaseRow[]> {
  const rows = await ctx.db
    .select()
    .from(agentReleases)
    .where(
      and(isNotNull(agentReleases.publishedAt), inArray(agentReleases.channel, channelsFollowedBy(channel))),
    );
  return rows.sort((a, b) => semver.rcompare(a.version, b.version));
}

/** Neither withdrawn nor halted: a build someone may still install. */
const isGood = (row: ReleaseRow) => row.rolloutState !== 'yanked' && row.rolloutState !== 'halted';

/**
 * The build the customer's download card offers: the newest offered to their PC, else (no PC yet,
 * or outside the share of every build so far) the newest one still good: a customer always has
 * something to install.
 */
export async function offeredRelease(
  ctx: AppContext,
  input: { channel: ReleaseChannel; hwid: string | null },
): Promise<Release | null> {
  const published = await publishedFor(ctx, input.channel);
  const offered = published.find((row) => isOffered(row, input.hwid)) ?? published.find(isGood);
  return offered ? toRelease(offered) : null;
}

/**
 * What an agent is told when its session opens: a newer build offered to its PC, or, when the build
 * it runs was withdrawn, the newest one offered to go back to (`rollback`). Both with a signed manifest.
 */
export async function updateFor(
  ctx: AppContext,
  agent: { version: string; channel: ReleaseChannel; hwid: string },
): Promise<AgentUpdate | null> {
  const [running] = await ctx.db.select().from(agentReleases).where(eq(agentReleases.version, agent.version));
  const rollback = running?.rolloutState === 'yanked';
  // Going back does not wait for a share: the newest good build, whatever its rollout.
  const target = (await publishedFor(ctx, agent.channel)).find(
    (row) => (rollback ? isGood(row) : isOffered(row, agent.hwid)) && row.version !== agent.version,
  );
  if (!target || (!rollback && !semver.gt(target.version, agent.version))) return null;
  return {
    version: target.version,
    channel: target.channel,
    notes: target.notes,
    pageUrl: `${ctx.config.publicUrl}${DOWNLOAD_PAGE}`,
    manifest: await signManifest(ctx, target, {
      rollback,
      // The agent installs an older build only from a manifest naming the version it runs (decision 912).
      ...(rollback ? { rollbackFrom: agent.version } : {}),
      pageUrl: `${ctx.config.publicUrl}${DOWNLOAD_PAGE}`,
    }),
    rollback,
  };
}

/** The manifest of a build, signed with the release key (EdDSA, `typ` bot-release+jwt). */
async function signManifest(
  ctx: AppContext,
  row: ReleaseRow,
  told: { rollback: boolean; rollbackFrom?: string; pageUrl: string },
): Promise<string | null> {
  if (!row.size || !row.sha256) return null;
  const now = Date.now();
  const link = downloadLink(ctx, row.id, now, MANIFEST_TTL_MS);
  const manifest: ReleaseManifest = {
    releaseId: row.id,
    version: row.version,
    channel: row.channel,
    size: row.size,
    sha256: row.sha256,
    url: `${ctx.config.publicUrl}/api${link.url}`,
    minAgentVersion: row.minAgentVersion,
    ...told,
  };
  const signer = await currentSigner(ctx, 'release');
  return new SignJWT({ ...manifest })
    .setProtectedHeader({ alg: 'EdDSA', kid: signer.kid, typ: RELEASE_MANIFEST_TYPE })
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + MANIFEST_TTL_MS) / 1000))
    .sign(signer.privateKey);
}

/** A published release, locked for a change of its rollout. */
async function lockPublished(tx: AppContext, id: string): Promise<ReleaseRow> {
  const [row] = await tx.db.select().from(agentReleases).where(eq(agentReleases.id, id)).for('update');
  if (!row?.publishedAt) throw new AppError('RELEASE_NOT_FOUND');
  return row;
}

/**
 * Staff raise or lower the share, set the steps, pause or resume (a halted rollout resumes only by
 * hand). 100 % completes it; a withdrawn build cannot come back (publish a fixed one).
 */
export function changeRollout(
  ctx: AppContext,
  input: ReleaseRolloutInput & { id: string; actor: AuditActor },
): Promise<Release> {
  return inTransaction(ctx, async (tx) => {
    const row = await lockPublished(tx, input.id);
    if (row.rolloutState === 'yanked') throw new AppError('RELEASE_YANKED');
    const percent = input.percent ?? row.rolloutPercent;
    const steps = input.steps ?? row.rolloutSteps;
    const state =
      percent >= 100
        ? 'complete'
        : (input.state ?? (row.rolloutState === 'complete' ? 'rolling' : row.rolloutState));
    const unchanged =
      percent === row.rolloutPercent &&
      state === row.rolloutState &&
      JSON.stringify(steps) === JSON.stringify(row.rolloutSteps);
    if (unchanged) return toRelease(row);
    // A new share, or a rollout starting again, counts its next step from now.
    const restarts =
      percent !== row.rolloutPercent || (state === 'rolling' && row.rolloutState !== 'rolling');
    const [updated] = await tx.db
      .update(agentReleases)
      .set({
        rolloutPercent: percent,
        rolloutSteps: steps,
        rolloutState: state,
        rolloutChangedAt: restarts ? new Date() : row.rolloutChangedAt,
      })
      .where(eq(agentReleases.id, row.id))
      .returning();
    await writeAudit(tx, {
      actor: input.actor,
      action: 'release.rollout',
      target: auditTarget(row),
      before: { percent: row.rolloutPercent, state: row.rolloutState, steps: row.rolloutSteps },
      after: { percent, state, steps: updated!.rolloutSteps },
    });
    return toRelease(updated!);
  });
}

/**
 * Withdraws a build: no longer offered, and agents running it are told to go back to the newest
 * build offered to them (at their next session, and at once on their socket: `release.yanked`).
 */
export function yankRelease(
  ctx: AppContext,
  input: { id: string; reason: string; actor: AuditActor },
): Promise<Release> {
  return inTransaction(ctx, async (tx) => {
    const row = await lockPublished(tx, input.id);
    if (row.rolloutState === 'yanked') throw new AppError('RELEASE_YANKED');
    const [updated] = await tx.db
      .update(agentReleases)
      .set({ rolloutState: 'yanked', yankReason: input.reason, rolloutChangedAt: new Date() })
      .where(eq(agentReleases.id, row.id))
      .returning();
    await writeAudit(tx, {
      actor: input.actor,
      action: 'release.yank',
      target: auditTarget(row),
      before: { state: row.rolloutState },
      after: { state: 'yanked', reason: input.reason },
    });
    tx.events.emit('release.yanked', { version: row.version, channel: row.channel });
    return toRelease(updated!);
  });
}

/** Periodic: rollouts whose next step is due rise to it (audited as the system's change). */
export async function advanceRollouts(ctx: AppContext, now = new Date()): Promise<number> {
  const rolling = await ctx.db.select().from(agentReleases).where(eq(agentReleases.rolloutState, 'rolling'));
  let advanced = 0;
  for (const row of rolling) {
    const next = row.rolloutSteps.find((step) => step.percent > row.rolloutPercent);
    const since = row.rolloutChangedAt ?? row.publishedAt;
    if (!next || !since || now.getTime() - since.getTime() < next.afterHours * 3_600_000) continue;
    await inTransaction(ctx, async (tx) => {
      const [updated] = await tx.db
        .update(agentReleases)
        .set({
          rolloutPercent: next.percent,
          rolloutState: next.percent >= 100 ? 'complete' : 'rolling',
          rolloutChangedAt: now,
        })
        // Only if nobody changed it meanwhile (another node's sweep, staff, the halt).
        .where(
          and(
            eq(agentReleases.id, row.id),
            eq(agentReleases.rolloutState, 'rolling'),
            eq(agentReleases.rolloutPercent, row.rolloutPercent),
          ),
        )
        .returning();
      if (!updated) return;
      advanced += 1;
      await writeAudit(tx, {
        actor: { id: null, username: null, ip: null },
        action: 'release.rollout',
        target: auditTarget(row),
        before: { percent: row.rolloutPercent },
        after: { percent: next.percent, step: next },
      });
    });
  }
  return advanced;
}
