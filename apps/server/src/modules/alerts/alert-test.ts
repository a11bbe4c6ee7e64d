import type { AlertChannel } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { type AppContext, inTransaction } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { users } from '../users/index.ts';
import { deliver } from './alert-delivery.ts';
import { type AlertMessage, frenchDate } from './alert-messages.ts';
import { getAlertPreferences } from './alerts.service.ts';

const WHERE: Record<AlertChannel, string> = {
  inApp: 'dans le centre de notifications',
  email: 'par e-mail',
  discord: 'sur Discord',
};

/**
 * A test message through one channel (decision 107), by the same path as an alert: `deliver`
 * writes it to the in-app notifications, the mail outbox or the Discord outbox, which send it at
 * once. Mail goes to the account's address, Discord to the saved webhook. Rate-limited per user.
 */
export async function sendChannelTest(ctx: AppContext, userId: string, channel: AlertChannel): Promise<void> {
  const preferences = await getAlertPreferences(ctx, userId);
  if (channel === 'discord' && !preferences.discordWebhookUrl) throw new AppError('DISCORD_WEBHOOK_REQUIRED');
  await ctx.limiter.hit('alertTest', userId); // throws RATE_LIMITED with Retry-After
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHORIZED');
  const at = new Date();
  const message: AlertMessage = {
    kind: 'info',
    rule: 'channel_test',
    title: 'Test des alertes',
    body: `Ce message de test, envoyé le ${frenchDate(at)}, confirme que vos alertes vous parviendront ${WHERE[channel]}.`,
  };
  const recipient = {
    userId,
    email: user.email,
    channelInApp: channel === 'inApp',
    channelEmail: channel === 'email',
    channelDiscord: channel === 'discord',
    discordWebhookUrl: preferences.discordWebhookUrl,
    emailDigest: false, // a test is sent at once
  };
  await inTransaction(ctx, async (tx) => {
    await deliver(tx, { recipient, incidentId: null, message, at });
    if (channel === 'inApp') tx.events.emit('notifications.created', { userIds: [userId] });
  });
}
