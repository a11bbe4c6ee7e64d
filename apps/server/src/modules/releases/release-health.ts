import { HEALTH_FIGURE_LABELS, HEALTH_FIGURES, type HealthFigure, type ReleaseHealth } from '@bot/contracts';
import { and, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import semver from 'semver';
import { type AppContext, inTransaction } from '../../context.ts';
import { writeAudit } from '../audit/index.ts';
import { botEvents } from '../bots/index.ts';
import { getSettings } from '../settings/index.ts';
import { auditTarget, type ReleaseRow } from './releases.service.ts';
import { agentReleases } from './releases.table.ts';

/** The window the connections and crashes are counted over. */
const WINDOW_MS = 60 * 60_000;
/**
 * A figure counts against a rollout only past the ratio and this gap: one extra reconnection per
 * bot, or 10 points of accounts in error, is noise on a few bots.
 */
const FLOORS: Record<HealthFigure, number> = { errorShare: 10, reconnectsPerBot: 1, crashesPerBot: 0.5 };

type Figures = Record<HealthFigure, number> & { bots: number };

/**
 * What the bots running each version did: accounts in error among those online now, and over the
 * last hour the reconnections (connections past each PC's first) and the crashes agents reported.
 */
async function figuresOf(
  ctx: AppContext,
  versions: readonly string[] | 'others',
  exclude: string,
  now: Date,
): Promise<Figures> {
  const runs = (version: string) =>
    versions === 'others' ? version !== exclude : versions.includes(version);
  const online = (await ctx.live.onlineBots()).filter((bot) => bot.online && runs(bot.version));
  const accounts = online.flatMap((bot) => bot.accounts);
  const inError = accounts.filter((account) => account.status === 'error').length;
  const version = sql<string>`${botEvents.detail}->>'version'`;
  const events = await ctx.db
    .select({ hwid: botEvents.hwid, kind: botEvents.kind, version })
    .from(botEvents)
    .where(
      and(
        inArray(botEvents.kind, ['connected', 'crashed']),
        gte(botEvents.at, new Date(now.getTime() - WINDOW_MS)),
      ),
    );
  const connections = new Map<string, number>();
  const crashed: string[] = [];
  for (const event of events) {
    if (!runs(event.version ?? '')) continue;
    if (event.kind === 'crashed') crashed.push(event.hwid);
    else connections.set(event.hwid, (connections.get(event.hwid) ?? 0) + 1);
  }
  const crashes = crashed.length;
  const bots = new Set([...online.map((bot) => bot.hwid), ...connections.keys(), ...crashed]).size;
  const reconnects = [...connections.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
  const perBot = (count: number) => (bots === 0 ? 0 : round(count / bots));
  return {
    bots,
    errorShare: accounts.length === 0 ? 0 : round((inError * 100) / accounts.length),
    reconnectsPerBot: perBot(reconnects),
    crashesPerBot: perBot(crashes),
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

/** The build a rollout is compared with: the newest older one of its channel still offered. */
async function previousVersion(ctx: AppContext, row: ReleaseRow): Promise<string | null> {
  const older = await ctx.db
    .select({ version: agentReleases.version, state: agentReleases.rolloutState })
    .from(agentReleases)
    .where(and(eq(agentReleases.channel, row.channel), isNotNull(agentReleases.publishedAt)));
  const candidates = older
    .filter((other) => other.state !== 'yanked' && semver.lt(other.version, row.version))
    .sort((a, b) => semver.rcompare(a.version, b.version));
  return candidates[0]?.version ?? null;
}

/**
 * A rollout's bots against the previous version's (or, when none runs it, the rest of the fleet's),
 * each figure marked when it is past `ratio` times the baseline and its floor. Undefined while fewer
 * than `minBots` run the new version: too few to judge.
 */
async function judgeRelease(
  ctx: AppContext,
  row: ReleaseRow,
  now = new Date(),
): Promise<ReleaseHealth | undefined> {
  const { rolloutHaltRatio: ratio, rolloutHaltMinBots: minBots } = await getSettings(ctx);
  const release = await figuresOf(ctx, [row.version], row.version, now);
  if (release.bots < minBots) return undefined;
  const previous = await previousVersion(ctx, row);
  let baseline = previous ? await figuresOf(ctx, [previous], row.version, now) : undefined;
  const baselineVersion = baseline && baseline.bots > 0 ? previous : null;
  if (!baseline || baseline.bots === 0) baseline = await figuresOf(ctx, 'others', row.version, now);
  const compared = baseline;
  return {
    at: now.toISOString(),
    baselineVersion,
    releaseBots: release.bots,
    baselineBots: compared.bots,
    figures: HEALTH_FIGURES.map((name) => ({
      name,
      release: release[name],
      baseline: compared[name],
      exceeded: release[name] > compared[name] * ratio && release[name] > compared[name] + FLOORS[name],
    })),
  };
}

/** A build whose rollout halted itself, with the figures that stopped it. */
export interface HaltedRelease {
  version: string;
  health: ReleaseHealth;
}

/** The builds halted now (the fleet alert `release_halted` holds while one is). */
export async function haltedReleases(ctx: AppContext): Promise<HaltedRelease[]> {
  const rows = await ctx.db
    .select({ version: agentReleases.version, health: agentReleases.rolloutHalt })
    .from(agentReleases)
    .where(eq(agentReleases.rolloutState, 'halted'));
  return rows.flatMap((row) => (row.health ? [{ version: row.version, health: row.health }] : []));
}

/**
 * Periodic (every node; the conditional update makes one of them halt it): a rollout in progress
 * whose bots fare worse than the previous version's stops itself, with both figures kept for the
 * releases page; staff are alerted by the fleet alerts (`release_halted`).
 */
export async function checkRollouts(ctx: AppContext, now = new Date()): Promise<number> {
  const judged = await ctx.db
    .select()
    .from(agentReleases)
    .where(inArray(agentReleases.rolloutState, ['rolling', 'paused']));
  let halted = 0;
  for (const row of judged) {
    const health = await judgeRelease(ctx, row, now);
    if (!health?.figures.some((figure) => figure.exceeded)) continue;
    await inTransaction(ctx, async (tx) => {
      const [stopped] = await tx.db
        .update(agentReleases)
        .set({ rolloutState: 'halted', rolloutHalt: health, rolloutChangedAt: now })
        .where(and(eq(agentReleases.id, row.id), inArray(agentReleases.rolloutState, ['rolling', 'paused'])))
        .returning();
      if (!stopped) return;
      halted += 1;
      await writeAudit(tx, {
        actor: { id: null, username: null, ip: null },
        action: 'release.halt',
        target: auditTarget(row),
        before: { state: row.rolloutState, percent: row.rolloutPercent },
        // Read by people in the audit trail: the figures in words, both versions side by side.
        after: {
          state: 'halted',
          percent: row.rolloutPercent,
          baselineVersion: health.baselineVersion ?? 'autres versions',
          figures: health.figures.map(
            (figure) => `${HEALTH_FIGURE_LABELS[figure.name]} : ${figure.release} contre ${figure.baseline}`,
          ),
        },
      });
    });
    ctx.log.warn(
      { version: row.version },
      'déploiement arrêté automatiquement : la nouvelle version fait pire',
    );
  }
  return halted;
}
