import type { VersionAdoption } from '@bot/contracts';
import { asc, eq, gt, gte, lt } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { deleteInBatches, retentionStart } from '../../core/batched-delete.ts';
import { getSettings } from '../settings/index.ts';
import { users } from '../users/index.ts';
import { agentUpdateDeferrals, agentVersionSamples } from './releases.table.ts';

/** How often the versions of the bots online are counted, and how far back the page reads. */
export const ADOPTION_SAMPLE_MS = 10 * 60_000;
const ADOPTION_DAYS = 7;

/**
 * Counts the bots online per version. Every node runs it; the time is rounded to the sampling
 * period, so the nodes write the same sample once (the others' inserts are ignored).
 */
export async function sampleVersions(ctx: AppContext, now = new Date()): Promise<void> {
  const online = (await ctx.live.onlineBots()).filter((bot) => bot.online);
  const counts = new Map<string, number>();
  for (const bot of online) counts.set(bot.version, (counts.get(bot.version) ?? 0) + 1);
  if (counts.size === 0) return;
  const at = new Date(Math.floor(now.getTime() / ADOPTION_SAMPLE_MS) * ADOPTION_SAMPLE_MS);
  await ctx.db
    .insert(agentVersionSamples)
    .values([...counts].map(([version, bots]) => ({ at, version, bots })))
    .onConflictDoNothing();
}

/** Deletes the samples older than `versionSampleRetentionDays` (the retention loop; the page reads 7 days). */
export async function pruneVersionSamples(ctx: AppContext, now = new Date()): Promise<number> {
  const { versionSampleRetentionDays } = await getSettings(ctx);
  const before = retentionStart(now, versionSampleRetentionDays);
  return deleteInBatches(ctx.db, agentVersionSamples, lt(agentVersionSamples.at, before));
}

/** The samples of the last days (oldest first) and the deferrals standing now. */
export async function readAdoption(ctx: AppContext, now = new Date()) {
  const rows = await ctx.db
    .select()
    .from(agentVersionSamples)
    .where(gte(agentVersionSamples.at, new Date(now.getTime() - ADOPTION_DAYS * 24 * 3_600_000)))
    .orderBy(asc(agentVersionSamples.at));
  const samples: VersionAdoption[] = [];
  for (const row of rows) {
    const at = row.at.toISOString();
    let sample = samples.at(-1);
    if (sample?.at !== at) {
      sample = { at, versions: {} };
      samples.push(sample);
    }
    sample.versions[row.version] = row.bots;
  }
  const deferrals = await ctx.db
    .select({
      hwid: agentUpdateDeferrals.hwid,
      username: users.username,
      version: agentUpdateDeferrals.version,
      until: agentUpdateDeferrals.until,
      at: agentUpdateDeferrals.at,
    })
    .from(agentUpdateDeferrals)
    .leftJoin(users, eq(users.hwid, agentUpdateDeferrals.hwid))
    .where(gt(agentUpdateDeferrals.until, now))
    .orderBy(asc(agentUpdateDeferrals.until));
  return {
    samples,
    deferrals: deferrals.map((row) => ({
      hwid: row.hwid,
      username: row.username,
      version: row.version,
      until: row.until.toISOString(),
      at: row.at.toISOString(),
    })),
  };
}

/**
 * An agent puts an update off ("pas maintenant"): kept per PC (the one its bot session is bound
 * to), shown to staff until it ends.
 */
export async function deferUpdate(
  ctx: AppContext,
  input: { hwid: string; version: string; minutes: number; now?: Date },
): Promise<{ until: string }> {
  const at = input.now ?? new Date();
  const until = new Date(at.getTime() + input.minutes * 60_000);
  await ctx.db
    .insert(agentUpdateDeferrals)
    .values({ hwid: input.hwid, version: input.version, until, at })
    .onConflictDoUpdate({ target: agentUpdateDeferrals.hwid, set: { version: input.version, until, at } });
  return { until: until.toISOString() };
}
