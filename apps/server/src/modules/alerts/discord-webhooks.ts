import { eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { hashSecret } from '../../core/ids.ts';
import { reseal, seal, unseal } from '../../core/sealing.ts';
import { alertPreferences, discordOutbox } from './alerts.table.ts';

/**
 * A Discord webhook's address is the right to post in its channel: the database keeps it sealed
 * under the master key, beside its SHA-256 digest (which users share a webhook, whether it changed)
 * (docs/security.md, "Storage"; docs/decisions/913-master-key-outside-the-data.md).
 */
export function webhookDigest(url: string): string {
  return hashSecret(url);
}

export function sealWebhook(key: Buffer, url: string): { sealed: string; digest: string } {
  return { sealed: seal(url, key), digest: webhookDigest(url) };
}

/** The clear address of a stored webhook; one an older node wrote in clear is read as it is. */
export function openWebhook(key: Buffer, stored: { sealed: string | null; legacy: string | null }) {
  if (stored.sealed) return unseal(stored.sealed, key);
  return stored.legacy;
}

/** Every sealed webhook (preferences and outbox) under another key (`npm run keys:master-rotate`). */
export async function resealDiscordWebhooks(
  ctx: Pick<AppContext, 'db'>,
  from: Buffer,
  to: Buffer,
): Promise<number> {
  const preferences = await ctx.db
    .select({ id: alertPreferences.userId, sealed: alertPreferences.discordWebhookSealed })
    .from(alertPreferences)
    .where(isNotNull(alertPreferences.discordWebhookSealed));
  for (const row of preferences)
    await ctx.db
      .update(alertPreferences)
      .set({ discordWebhookSealed: reseal(row.sealed!, from, to) })
      .where(eq(alertPreferences.userId, row.id));
  const messages = await ctx.db
    .select({ id: discordOutbox.id, sealed: discordOutbox.urlSealed })
    .from(discordOutbox)
    .where(isNotNull(discordOutbox.urlSealed));
  for (const row of messages)
    await ctx.db
      .update(discordOutbox)
      .set({ urlSealed: reseal(row.sealed!, from, to) })
      .where(eq(discordOutbox.id, row.id));
  return preferences.length + messages.length;
}

/**
 * Webhooks an older version stored in clear (before migration 0024), sealed at start and the clear
 * column emptied. The messages already sent lost theirs in the migration itself.
 */
export async function sealClearDiscordWebhooks(ctx: Pick<AppContext, 'db'>, key: Buffer): Promise<number> {
  const preferences = await ctx.db
    .select({ id: alertPreferences.userId, url: alertPreferences.legacyDiscordWebhookUrl })
    .from(alertPreferences)
    .where(isNotNull(alertPreferences.legacyDiscordWebhookUrl));
  for (const row of preferences) {
    const { sealed, digest } = sealWebhook(key, row.url!);
    await ctx.db
      .update(alertPreferences)
      .set({ discordWebhookSealed: sealed, discordWebhookDigest: digest, legacyDiscordWebhookUrl: null })
      .where(eq(alertPreferences.userId, row.id));
  }
  const messages = await ctx.db
    .select({ id: discordOutbox.id, url: discordOutbox.legacyUrl })
    .from(discordOutbox)
    .where(isNotNull(discordOutbox.legacyUrl));
  for (const row of messages) {
    const { sealed, digest } = sealWebhook(key, row.url!);
    await ctx.db
      .update(discordOutbox)
      .set({ urlSealed: sealed, webhookDigest: digest, legacyUrl: null })
      .where(eq(discordOutbox.id, row.id));
  }
  return preferences.length + messages.length;
}
