import type { AppContext } from '../../context.ts';
import { newId } from '../../core/ids.ts';
import { queueMail } from '../mail/mail-outbox.service.ts';
import { type AlertMessage, alertMail, discordPayload } from './alert-messages.ts';
import { discordOutbox, notifications } from './alerts.table.ts';

export interface Recipient {
  userId: string;
  email: string;
  channelInApp: boolean;
  channelEmail: boolean;
  channelDiscord: boolean;
  discordWebhookUrl: string | null;
}

/**
 * Writes one message to every channel the user chose, in the caller's transaction: the incident's
 * state and its messages commit together, so a message is never sent twice nor lost. The mail and
 * Discord outboxes send them after the commit.
 */
export async function deliver(
  ctx: AppContext,
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
  if (recipient.channelEmail) {
    await queueMail(ctx, { to: recipient.email, ...alertMail(message, ctx.config.publicUrl) });
  }
  if (recipient.channelDiscord && recipient.discordWebhookUrl) {
    await ctx.db
      .insert(discordOutbox)
      .values({ id: newId(), url: recipient.discordWebhookUrl, payload: discordPayload(message, at) });
    ctx.events.emit('discord.queued', {});
  }
}
