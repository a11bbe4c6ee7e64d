import { DEFAULT_SETTINGS, type PublicSettings, type SiteSettings, siteSettingsSchema } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type AppContext, inTransaction } from '../../context.ts';
import { CachedRead } from '../../core/cached-read.ts';
import type { SettingsCache } from '../../core/caches.ts';
import { AppError } from '../../core/errors.ts';
import type { EventBus } from '../../core/events.ts';
import { type AuditActor, writeAudit } from '../audit/index.ts';
import { serverSecrets, settings } from './settings.table.ts';

/**
 * Settings are read on many requests: cached briefly, dropped as soon as any node announces a change
 * (`settings.changed` reaches every node).
 */
const SETTINGS_CACHE_TTL_MS = 2_000;

/** Built once per app (app.ts): emptied as soon as any node announces a change. */
export function createSettingsCache(events: EventBus): SettingsCache {
  const cache = new CachedRead<SiteSettings>(SETTINGS_CACHE_TTL_MS);
  events.on('settings.changed', () => cache.forget());
  return cache;
}

/** The settings, from the cache while fresh (one read shared by every caller when not). */
export function getSettings(ctx: AppContext): Promise<SiteSettings> {
  return ctx.settingsCache.get(() => readSettings(ctx, ctx.log));
}

/**
 * What a security setting becomes when its stored value no longer validates (a manual edit, a
 * restore from another version): the closed side, never the default's open one
 * (docs/decisions/406-settings-stored-exactly.md). Every other setting falls back to its default.
 */
const FAIL_CLOSED_SETTINGS: Partial<SiteSettings> = {
  registrationOpen: false,
  maintenanceMode: true,
  staffTwoFactorRequired: true,
  // No agent qualifies until staff set a real minimum.
  minBotVersion: '999999.0.0',
};

const settingKeys = Object.keys(DEFAULT_SETTINGS) as (keyof SiteSettings)[];

/** Stored values over the defaults, each validated alone: one bad value falls back by itself, logged. */
async function readSettings(ctx: AppContext, log: Logger): Promise<SiteSettings> {
  const rows = await ctx.db.select().from(settings);
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  const value: Record<string, unknown> = {};
  for (const key of settingKeys) {
    if (!stored.has(key)) {
      value[key] = DEFAULT_SETTINGS[key];
      continue;
    }
    const parsed = siteSettingsSchema.shape[key].safeParse(stored.get(key));
    if (parsed.success) value[key] = parsed.data;
    else {
      value[key] = key in FAIL_CLOSED_SETTINGS ? FAIL_CLOSED_SETTINGS[key] : DEFAULT_SETTINGS[key];
      log.error({ key, fallback: value[key] }, 'réglage enregistré invalide : valeur de repli utilisée');
    }
  }
  return value as SiteSettings;
}

export function toPublicSettings(
  value: SiteSettings,
  maintenanceWindow: PublicSettings['maintenanceWindow'] = null,
): PublicSettings {
  return {
    maintenanceWindow,
    isSnow: value.isSnow,
    registrationOpen: value.registrationOpen,
    maintenanceMode: value.maintenanceMode,
    maintenanceMessage: value.maintenanceMessage,
    announcement: value.announcement,
    hwidResetCooldownHours: value.hwidResetCooldownHours,
  };
}

/**
 * A value every node must agree on (the master key's check, secrets-at-rest.ts): the first writer's
 * is kept and answered; a later one compares its own with it.
 */
export async function claimServerSecret(
  ctx: Pick<AppContext, 'db'>,
  name: string,
  value: string,
): Promise<string> {
  await ctx.db.insert(serverSecrets).values({ name, value }).onConflictDoNothing();
  const [row] = await ctx.db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new AppError('INTERNAL');
  return row.value;
}

/** Replaces a stored value (a master key rotation, in its transaction). */
export async function replaceServerSecret(
  ctx: Pick<AppContext, 'db'>,
  name: string,
  value: string,
): Promise<void> {
  await ctx.db
    .insert(serverSecrets)
    .values({ name, value })
    .onConflictDoUpdate({ target: serverSecrets.name, set: { value, createdAt: new Date() } });
}

/**
 * Removes a stored value and answers it (undefined when absent). Inside a transaction the row stays
 * locked until the commit, so of two nodes taking it at once only one gets it.
 */
export async function takeServerSecret(
  ctx: Pick<AppContext, 'db'>,
  name: string,
): Promise<string | undefined> {
  const [row] = await ctx.db
    .delete(serverSecrets)
    .where(eq(serverSecrets.name, name))
    .returning({ value: serverSecrets.value });
  return row?.value;
}

/**
 * Applies a validated change of the site settings: only the keys whose value changes are written,
 * with one audit entry holding their before and after values, in one transaction.
 */
export async function updateSettings(
  ctx: AppContext,
  input: { patch: Partial<SiteSettings>; actor: AuditActor },
): Promise<SiteSettings> {
  await inTransaction(ctx, async (tx) => {
    const current = await readSettings(tx, ctx.log);
    const changes = Object.entries(input.patch).filter(
      ([key, value]) => value !== undefined && current[key as keyof SiteSettings] !== value,
    );
    if (changes.length === 0) return;
    const before = Object.fromEntries(changes.map(([key]) => [key, current[key as keyof SiteSettings]]));
    const after = Object.fromEntries(changes);
    for (const [key, value] of changes) {
      await tx.db
        .insert(settings)
        .values({ key, value, updatedById: input.actor.id })
        .onConflictDoUpdate({
          target: settings.key,
          set: { value, updatedAt: new Date(), updatedById: input.actor.id },
        });
    }
    await writeAudit(tx, {
      actor: input.actor,
      action: 'settings.update',
      target: { type: 'settings', id: 'site', label: Object.keys(after).join(', ') },
      before,
      after,
    });
    tx.events.emit('settings.changed', { keys: Object.keys(after) });
  });
  ctx.settingsCache.forget();
  return getSettings(ctx);
}
