import type { TxContext } from '../../context.ts';
import { newId } from '../../core/ids.ts';
import { queueMail } from '../mail/index.ts';
import { parisDay } from './alert-digest.ts';
import { type AlertMessage, alertMail, discordPayload } from './alert-messages.ts';
import { alertDigestEntries, discordOutbox, notifications } from './alerts.table.ts';
import { sealWebhook } from './discord-webhooks.ts';

export interface Recipient {
  userId: string;
  email: string;
  channelInApp: boolean;
  channelEmail: boolean;
  channelDiscord: boolean;
  discordWebhookUrl: string | null;
  /** E-mail alerts wait for the daily digest instead of one mail each (decision 907). */
  emailDigest: boolean;
}

/**
 * Writes one message to every channel the user chose, in the caller's transaction: the incident's
 * state and its messages commit together, so a message is never sent twice nor lost. The mail and
 * Discord outboxes send them after the commit.
 */
export async function deliver(
  ctx: TxContext,
  input: { recipient: Recipient; incidentId: string | null; message: AlertMessage; at: Date },
): Promise<void> {
  const { recipient, message, at } = input;
  if (recipient.channelInApp) {
    await ctx.db.insert(notifications).values({
      id: newId(),
      userId: recipient.userId,
      incidentId: input.incidentId,
      kind: message.kind,
      rule: message.rule,
      title: message.title,
      body: message.body,
      createdAt: at,
    });
  }
  if (recipient.channelEmail && recipient.emailDigest) {
    await ctx.db.insert(alertDigestEntries).values({
      id: newId(),
      userId: recipient.userId,
      day: parisDay(at),
      kind: message.kind,
      title: message.title,
      body: message.body,
      at,
    });
  } else if (recipient.channelEmail) {
    await queueMail(ctx, { to: recipient.email, ...alertMail(message, ctx.config.publicUrl) });
  }
  if (recipient.channelDiscord && recipient.discordWebhookUrl) {
    const { sealed, digest } = sealWebhook(ctx.sealingKey, recipient.discordWebhookUrl);
    await ctx.db.insert(discordOutbox).values({
      id: newId(),
      urlSealed: sealed,
      webhookDigest: digest,
      payload: discordPayload(message, at),
    });
    ctx.events.emit('discord.queued', {});
  }
}
