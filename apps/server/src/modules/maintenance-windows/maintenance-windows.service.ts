import {
  type AlertRule,
  FLEET_ALERT_RULES,
  MAINTENANCE_WINDOW_MAX_HOURS,
  type MaintenanceScope,
  type MaintenanceWindow,
  type MaintenanceWindowInput,
  type MaintenanceWindowState,
  type RunningMaintenance,
} from '@bot/contracts';
import { and, asc, desc, eq, gt, isNull, lte } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { CachedRead } from '../../core/cached-read.ts';
import type { MaintenanceCache } from '../../core/caches.ts';
import { AppError } from '../../core/errors.ts';
import type { EventBus } from '../../core/events.ts';
import { newId } from '../../core/ids.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { users } from '../users/index.ts';
import { maintenanceWindows } from './maintenance-windows.table.ts';

/** Windows one list shows (the latest by start). */
const LIST_SIZE = 50;
const HOUR_MS = 3_600_000;

type Row = typeof maintenanceWindows.$inferSelect;

/** The rules a window of each scope mutes (decision 907): the alerts the platform itself causes. */
/**
 * Fleet alerts a maintenance can cause (a halted rollout is about a build, an expiring key set about
 * the operator's root, decision 912: not the platform).
 */
const PLATFORM_FLEET_RULES = FLEET_ALERT_RULES.filter(
  (rule) => rule !== 'release_halted' && rule !== 'key_set_expiring',
);
const MUTED_RULES: Record<MaintenanceScope, ReadonlySet<AlertRule>> = {
  all: new Set<AlertRule>(['bot_offline', 'account_error', ...PLATFORM_FLEET_RULES]),
  fleet: new Set<AlertRule>(PLATFORM_FLEET_RULES),
};

/** When a window really stops: its end, or its cancellation if that came first. */
function effectiveEnd(row: Pick<Row, 'endsAt' | 'cancelledAt'>): Date {
  return row.cancelledAt && row.cancelledAt < row.endsAt ? row.cancelledAt : row.endsAt;
}

function stateOf(row: Row, now: Date): MaintenanceWindowState {
  if (row.cancelledAt && row.cancelledAt <= row.startsAt) return 'cancelled';
  if (row.cancelledAt && row.cancelledAt < row.endsAt && row.cancelledAt <= now) return 'cancelled';
  if (row.endsAt <= now) return 'ended';
  return row.startsAt <= now ? 'running' : 'scheduled';
}

function toWindow(row: Row, createdBy: string | null, now: Date): MaintenanceWindow {
  return {
    id: row.id,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    message: row.message,
    scope: row.scope,
    state: stateOf(row, now),
    createdAt: row.createdAt.toISOString(),
    createdBy,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
  };
}

/** The windows, latest start first (past ones stay listed: what was muted, when, by whom). */
export async function listMaintenanceWindows(
  ctx: AppContext,
  now = new Date(),
): Promise<MaintenanceWindow[]> {
  const rows = await ctx.db
    .select({ window: maintenanceWindows, createdBy: users.username })
    .from(maintenanceWindows)
    .leftJoin(users, eq(users.id, maintenanceWindows.createdById))
    .orderBy(desc(maintenanceWindows.startsAt), desc(maintenanceWindows.id))
    .limit(LIST_SIZE);
  return rows.map((row) => toWindow(row.window, row.createdBy, now));
}

/** Schedules a window (it may start at once): the end follows the start, is ahead, and within 7 days. */
export async function createMaintenanceWindow(
  ctx: AppContext,
  input: { window: MaintenanceWindowInput; actor: AuditActor & { id: string; username: string }; now?: Date },
): Promise<MaintenanceWindow> {
  const now = input.now ?? new Date();
  const startsAt = new Date(input.window.startsAt);
  const endsAt = new Date(input.window.endsAt);
  if (endsAt <= startsAt || endsAt <= now) throw new AppError('MAINTENANCE_WINDOW_INVALID');
  if (endsAt.getTime() - startsAt.getTime() > MAINTENANCE_WINDOW_MAX_HOURS * HOUR_MS)
    throw new AppError('MAINTENANCE_WINDOW_TOO_LONG');
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(maintenanceWindows)
      .values({
        id: newId(),
        startsAt,
        endsAt,
        message: input.window.message,
        scope: input.window.scope,
        createdById: input.actor.id,
        createdAt: now,
      })
      .returning();
    if (!row) throw new AppError('INTERNAL');
    await writeAudit(tx, {
      actor: input.actor,
      action: 'maintenance_window.create',
      target: { type: 'maintenance_window', id: row.id, label: row.message.slice(0, 80) },
      after: { startsAt: row.startsAt, endsAt: row.endsAt, message: row.message, scope: row.scope },
    });
    // Open browsers get the banner at once if it starts now (the others at their next poll).
    tx.events.emit('settings.changed', { keys: ['maintenanceWindow'] });
    return toWindow(row, input.actor.username, now);
  });
}

/**
 * Cancels a window that has not ended: a scheduled one never runs, a running one ends now (the
 * alerts resume as after any window). An ended or already cancelled one is refused (409).
 */
export async function cancelMaintenanceWindow(
  ctx: AppContext,
  input: { id: string; actor: AuditActor; now?: Date },
): Promise<MaintenanceWindow> {
  const now = input.now ?? new Date();
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(maintenanceWindows)
      .set({ cancelledAt: now })
      .where(
        and(
          eq(maintenanceWindows.id, input.id),
          isNull(maintenanceWindows.cancelledAt),
          gt(maintenanceWindows.endsAt, now),
        ),
      )
      .returning();
    if (!row) {
      const [exists] = await tx.db
        .select({ id: maintenanceWindows.id })
        .from(maintenanceWindows)
        .where(eq(maintenanceWindows.id, input.id));
      throw new AppError(exists ? 'MAINTENANCE_WINDOW_OVER' : 'NOT_FOUND');
    }
    await writeAudit(tx, {
      actor: input.actor,
      action: 'maintenance_window.cancel',
      target: { type: 'maintenance_window', id: row.id, label: row.message.slice(0, 80) },
      before: { startsAt: row.startsAt, endsAt: row.endsAt, scope: row.scope },
      after: { cancelledAt: now },
    });
    tx.events.emit('settings.changed', { keys: ['maintenanceWindow'] });
    const [creator] = row.createdById
      ? await tx.db.select({ username: users.username }).from(users).where(eq(users.id, row.createdById))
      : [];
    return toWindow(row, creator?.username ?? null, now);
  });
}

/**
 * The windows not over yet, as every page load and every page's socket reads them for the banner:
 * cached like the settings (a read per request cost `/api/settings/public` seventeen times its CPU),
 * forgotten when any node announces a window changed. Which of them runs is decided at each read.
 */
const UPCOMING_CACHE_TTL_MS = 2_000;

/** Built once per app (app.ts): emptied as soon as any node announces a window changed. */
export function createMaintenanceCache(events: EventBus): MaintenanceCache {
  const cache = new CachedRead<Row[]>(UPCOMING_CACHE_TTL_MS);
  events.on('settings.changed', ({ keys }) => {
    if (keys.includes('maintenanceWindow')) cache.forget();
  });
  return cache;
}

/** Windows not over at the time of the read, by start, then in the order they were scheduled. */
async function readUpcomingRows(ctx: AppContext): Promise<Row[]> {
  const now = new Date();
  const rows = await ctx.db
    .select()
    .from(maintenanceWindows)
    .where(gt(maintenanceWindows.endsAt, now))
    // Ids are time-ordered: of two windows starting together, the banner keeps the first scheduled.
    .orderBy(asc(maintenanceWindows.startsAt), asc(maintenanceWindows.id));
  return rows.filter((row) => effectiveEnd(row) > now);
}

/** The window the banner shows now (the earliest started, then the first scheduled, if several overlap), or null. */
export async function runningMaintenance(ctx: AppContext, now = new Date()): Promise<RunningMaintenance> {
  const upcoming = await ctx.maintenanceCache.get(() => readUpcomingRows(ctx));
  const row = upcoming.find((candidate) => candidate.startsAt <= now && effectiveEnd(candidate) > now);
  return row ? { message: row.message, endsAt: effectiveEnd(row).toISOString() } : null;
}

/**
 * What the alert evaluation needs (decision 907): the rules muted now, and for each rule the end of
 * the latest window that muted it and is over (a condition that began before that end is judged
 * afresh: its alert waits for the quiet period after the window).
 */
export interface MaintenanceState {
  muted: ReadonlySet<AlertRule>;
  lastEnd: ReadonlyMap<AlertRule, Date>;
}

/** Windows that ended within this long still delay the alerts of conditions that began before them. */
const RECENT_MS = 7 * 24 * HOUR_MS;

export async function maintenanceState(ctx: AppContext, now: Date): Promise<MaintenanceState> {
  const rows = await ctx.db
    .select()
    .from(maintenanceWindows)
    .where(
      and(
        lte(maintenanceWindows.startsAt, now),
        gt(maintenanceWindows.endsAt, new Date(now.getTime() - RECENT_MS)),
      ),
    );
  const muted = new Set<AlertRule>();
  const lastEnd = new Map<AlertRule, Date>();
  for (const row of rows) {
    const end = effectiveEnd(row);
    if (end <= row.startsAt) continue; // cancelled before it began: it never ran
    for (const rule of MUTED_RULES[row.scope]) {
      if (end > now) muted.add(rule);
      else if (!lastEnd.has(rule) || (lastEnd.get(rule) as Date) < end) lastEnd.set(rule, end);
    }
  }
  return { muted, lastEnd };
}
