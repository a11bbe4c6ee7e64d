import type { ChannelHealth } from '@bot/contracts';
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { newId } from '../../core/ids.ts';
import type { MailDeliveryListener } from '../mail/index.ts';
import { users } from '../users/index.ts';
import { frenchDate } from './alert-messages.ts';
import { alertPreferences, notifications } from './alerts.table.ts';

type Channel = 'email' | 'discord';
/** Whose channel: the users of an e-mail address, or of a Discord webhook (by its digest, discord-webhooks.ts). */
type Target = { email: string } | { webhookDigest: string };

const COLUMNS = {
  email: { since: alertPreferences.emailFailingSince, error: alertPreferences.emailLastError },
  discord: { since: alertPreferences.discordFailingSince, error: alertPreferences.discordLastError },
} as const;

const TOLD: Record<Channel, { title: string; advice: string }> = {
  email: {
    title: 'Vos alertes par e-mail n’arrivent plus',
    advice: 'Vérifiez votre adresse e-mail et votre boîte, ou choisissez un autre canal.',
  },
  discord: {
    title: 'Vos alertes Discord n’arrivent plus',
    advice:
      'Le webhook a sans doute été supprimé : collez-en un nouveau dans « Canaux des alertes », ou choisissez un autre canal.',
  },
};

/**
 * A channel failed for good (Discord answered 401/403/404 or the retries ran out; the SMTP server
 * refused the address with a 5xx, or the retries ran out): its users' channel is marked failing
 * with the error and the time, shown on their channels card. Only the users whose channel was not
 * failing yet get an in-app notification: one per failure episode, not one per message (decision 907).
 */
export async function recordChannelFailure(
  ctx: AppContext,
  input: { channel: Channel; target: Target; error: string; at?: Date },
): Promise<void> {
  const at = input.at ?? new Date();
  const columns = COLUMNS[input.channel];
  const error = input.error.slice(0, 300);
  const ids = await userIdsOf(ctx, input.target);
  if (ids.length === 0) return;
  await inTransaction(ctx, async (tx) => {
    const started = await tx.db
      .update(alertPreferences)
      .set(
        input.channel === 'email'
          ? { emailFailingSince: at, emailLastError: error }
          : { discordFailingSince: at, discordLastError: error },
      )
      .where(and(inArray(alertPreferences.userId, ids), isNull(columns.since)))
      .returning({ userId: alertPreferences.userId });
    await tx.db
      .update(alertPreferences)
      .set(input.channel === 'email' ? { emailLastError: error } : { discordLastError: error })
      .where(and(inArray(alertPreferences.userId, ids), isNotNull(columns.since)));
    const { title, advice } = TOLD[input.channel];
    for (const { userId } of started) {
      await tx.db.insert(notifications).values({
        id: newId(),
        userId,
        kind: 'alert',
        rule: 'channel_failure',
        title,
        body: `Dernier échec le ${frenchDate(at)} : ${error}. ${advice}`,
        createdAt: at,
      });
    }
    const told = started.map((row) => row.userId);
    if (told.length > 0) tx.events.emit('notifications.created', { userIds: told });
  });
}

/** A message went through: the channel works again for its users. */
export async function clearChannelFailure(ctx: AppContext, input: { channel: Channel; target: Target }) {
  const ids = await userIdsOf(ctx, input.target, input.channel);
  if (ids.length === 0) return;
  await ctx.db
    .update(alertPreferences)
    .set(
      input.channel === 'email'
        ? { emailFailingSince: null, emailLastError: null }
        : { discordFailingSince: null, discordLastError: null },
    )
    .where(inArray(alertPreferences.userId, ids));
}

/** The users of the target (with an alert preferences row); with `failing`, only those whose channel is failing. */
async function userIdsOf(ctx: AppContext, target: Target, failing?: Channel): Promise<string[]> {
  const isFailing = failing ? isNotNull(COLUMNS[failing].since) : undefined;
  const rows =
    'webhookDigest' in target
      ? await ctx.db
          .select({ userId: alertPreferences.userId })
          .from(alertPreferences)
          .where(and(eq(alertPreferences.discordWebhookDigest, target.webhookDigest), isFailing))
      : await ctx.db
          .select({ userId: alertPreferences.userId })
          .from(alertPreferences)
          .innerJoin(users, eq(users.id, alertPreferences.userId))
          .where(and(sql`lower(${users.email}) = ${target.email.toLowerCase()}`, isFailing));
  return rows.map((row) => row.userId);
}

/** `GET /me/alerts/channels`: whether the e-mail and Discord channels are failing. */
export async function channelHealth(ctx: AppContext, userId: string): Promise<ChannelHealth> {
  const [row] = await ctx.db
    .select({
      emailSince: alertPreferences.emailFailingSince,
      emailError: alertPreferences.emailLastError,
      discordSince: alertPreferences.discordFailingSince,
      discordError: alertPreferences.discordLastError,
    })
    .from(alertPreferences)
    .where(eq(alertPreferences.userId, userId));
  const state = (since: Date | null | undefined, error: string | null | undefined) =>
    since ? { since: since.toISOString(), lastError: error ?? '' } : null;
  return {
    email: state(row?.emailSince, row?.emailError),
    discord: state(row?.discordSince, row?.discordError),
  };
}

/**
 * The e-mail channel's health as the mail outbox tells it (app.ts wires it): a delivered mail clears
 * a failing channel, a refused one marks it failing and tells its owner in-app once (decision 907).
 */
export function emailChannelHealth(ctx: AppContext): MailDeliveryListener {
  return {
    delivered: (email) =>
      healthNoted(ctx, () => clearChannelFailure(ctx, { channel: 'email', target: { email } })),
    refused: (email, error) =>
      healthNoted(ctx, () =>
        recordChannelFailure(ctx, {
          channel: 'email',
          target: { email },
          error: `serveur d’e-mail : ${error}`,
        }),
      ),
  };
}

/** The channel's health is a note on the side: failing to write it never stops the outbox. */
export async function healthNoted(ctx: AppContext, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    ctx.log.warn({ err: error }, 'état du canal d’alerte non enregistré');
  }
}
