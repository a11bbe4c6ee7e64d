import {
  ALWAYS_ON_FLEET_ALERT_RULES,
  DEFAULT_ALERT_PREFERENCES,
  DEFAULT_FLEET_ALERT_PREFERENCES,
  FLEET_ALERT_FIELDS,
  FLEET_ALERT_PERMISSIONS,
  FLEET_ALERT_RULES,
  type FleetAlertRule,
  fleetAlertRulesFor,
} from '@bot/contracts';
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { findUserIdsHolding, getUserPermissions } from '../access/index.ts';
import { users } from '../users/index.ts';
import type { Recipient } from './alert-delivery.ts';
import { alertPreferences } from './alerts.table.ts';
import { openWebhook } from './discord-webhooks.ts';

/** One user the evaluation watches: their channels, their rules, their fleet alerts. */
export type WatchedUser = Recipient & {
  hwid: string | null;
  botOffline: boolean;
  offlineMinutes: number;
  accountError: boolean;
  packageExpiring: boolean;
  payments: boolean;
  /** A reminder every so many hours while an incident stays open; 0: never (decision 907). */
  reminderHours: number;
  /** The fleet alerts chosen that the staff member's permissions still open (decision 903). */
  fleetRules: ReadonlySet<FleetAlertRule>;
  fleetErrorPercent: number;
};

/**
 * Everyone an evaluation watches: users who chose any alert, and the holders of an always-on fleet
 * rule's permission even with nothing chosen (the key set's expiry, decision 912).
 */
export async function watchedUsers(ctx: AppContext): Promise<WatchedUser[]> {
  // The holders of an always-on rule's permission are watched even with nothing chosen (decision 912).
  const keepers = new Set<string>();
  for (const rule of ALWAYS_ON_FLEET_ALERT_RULES)
    for (const permission of FLEET_ALERT_PERMISSIONS[rule])
      for (const id of await findUserIdsHolding(ctx, permission)) keepers.add(id);
  const rows = await ctx.db
    .select({ preferences: alertPreferences, email: users.email, hwid: users.hwid })
    .from(alertPreferences)
    .innerJoin(users, eq(users.id, alertPreferences.userId))
    .where(
      and(
        or(
          eq(alertPreferences.botOffline, true),
          eq(alertPreferences.accountError, true),
          eq(alertPreferences.packageExpiring, true),
          eq(alertPreferences.payments, true),
          eq(alertPreferences.fleetErrors, true),
          eq(alertPreferences.paymentWebhooks, true),
          eq(alertPreferences.mailBacklog, true),
          eq(alertPreferences.releaseHalted, true),
          eq(alertPreferences.keySetExpiring, true),
          keepers.size > 0 ? inArray(alertPreferences.userId, [...keepers]) : undefined,
        ),
        isNull(users.bannedAt),
      ),
    );
  const withRow = new Set(rows.map((row) => row.preferences.userId));
  const unset = [...keepers].filter((id) => !withRow.has(id));
  // Never saved any preference: the defaults (in-app only, no rule of their own).
  const defaults = unset.length
    ? await ctx.db
        .select({ userId: users.id, email: users.email, hwid: users.hwid })
        .from(users)
        .where(and(inArray(users.id, unset), isNull(users.bannedAt)))
    : [];
  const defaultWatchers = await Promise.all(
    defaults.map(async (user) => ({
      ...user,
      ...DEFAULT_FLEET_ALERT_PREFERENCES,
      botOffline: false,
      offlineMinutes: DEFAULT_ALERT_PREFERENCES.offlineMinutes,
      accountError: false,
      packageExpiring: false,
      payments: false,
      channelInApp: true,
      channelEmail: false,
      channelDiscord: false,
      discordWebhookUrl: null,
      emailDigest: false,
      reminderHours: 0,
      fleetRules: await allowedFleetRules(
        ctx,
        { userId: user.userId, ...DEFAULT_FLEET_ALERT_PREFERENCES },
        keepers,
      ),
    })),
  );
  const chosen = await Promise.all(
    rows.map(async ({ preferences, email, hwid }) => ({
      ...preferences,
      discordWebhookUrl: openWebhook(ctx.sealingKey, {
        sealed: preferences.discordWebhookSealed,
        legacy: preferences.legacyDiscordWebhookUrl,
      }),
      email,
      hwid,
      fleetRules: await allowedFleetRules(ctx, preferences, keepers),
    })),
  );
  return [...chosen, ...defaultWatchers];
}

/**
 * The fleet alerts chosen, and the always-on ones for the holders of their permission (`keepers`),
 * less those the staff member's permissions no longer open.
 */
async function allowedFleetRules(
  ctx: AppContext,
  chosen: { userId: string } & Record<(typeof FLEET_ALERT_FIELDS)[FleetAlertRule], boolean>,
  keepers: ReadonlySet<string>,
): Promise<Set<FleetAlertRule>> {
  const isKeeper = keepers.has(chosen.userId);
  const rules = new Set(
    FLEET_ALERT_RULES.filter(
      (rule) => chosen[FLEET_ALERT_FIELDS[rule]] || (isKeeper && ALWAYS_ON_FLEET_ALERT_RULES.includes(rule)),
    ),
  );
  if (rules.size === 0) return rules;
  const allowed = fleetAlertRulesFor(await getUserPermissions(ctx, chosen.userId));
  return new Set(allowed.filter((rule) => rules.has(rule)));
}
