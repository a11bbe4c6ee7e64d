import type { AlertPreferences, ChannelHealth, NotificationsAnswer } from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DiscordReceiver } from '../../../test/discord-receiver.ts';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import {
  account,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  statusReported,
  type TestSocket,
  waitForClose,
} from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { botEvents } from '../bots/index.ts';
import { mailOutbox } from '../mail/index.ts';
import { updateSettings } from '../settings/index.ts';
import { parisDay } from './alert-digest.ts';
import { evaluateAlerts } from './alert-evaluator.ts';
import { notifications } from './alerts.table.ts';
import { pruneNotifications } from './notifications-pruning.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WEBHOOK = 'https://discord.com/api/webhooks/223456789012345678/Abc-def_ghijklmnopqrstuvwxyz0123';

let server: TestServer;
let discord: DiscordReceiver;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  discord = new DiscordReceiver();
  const discordUrl = await discord.start();
  server = await startTestServer({
    env: { DISCORD_API_URL: discordUrl },
    // The periodic evaluation stays out of the way: these tests call it with the time they need.
    alerts: { evaluateEveryMs: 3_600_000, quietMs: 15 * MINUTE, discordPollMs: 50, discordRetryBaseMs: 20 },
    mail: { pollMs: 50, retryBaseMs: 20 },
  });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
  await discord.close();
});

const preferences = (overrides: Partial<AlertPreferences> = {}): AlertPreferences => ({
  botOffline: true,
  offlineMinutes: 5,
  accountError: true,
  packageExpiring: false,
  payments: false,
  channels: { inApp: true, email: false, discord: false },
  discordWebhookUrl: null,
  reminderHours: 0,
  emailDigest: false,
  ...overrides,
});

async function notificationsOf(user: TestUser): Promise<NotificationsAnswer['data']> {
  const answer = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, user.token);
  expect(answer.status).toBe(200);
  return answer.body.data;
}
const titles = async (user: TestUser) => (await notificationsOf(user)).map((entry) => entry.title);

async function eventWritten(userId: string, kind: 'connected' | 'disconnected' | 'error', count = 1) {
  await vi.waitFor(async () => {
    const rows = await server.ctx.db
      .select()
      .from(botEvents)
      .where(and(eq(botEvents.userId, userId), eq(botEvents.kind, kind)));
    expect(rows.length).toBeGreaterThanOrEqual(count);
  });
}

async function connectBot(owner: { botToken: string; hwid: string }) {
  const { socket } = await connectOwnerBot(server, owner);
  sockets.push(socket);
  return socket;
}

async function stop(socket: TestSocket) {
  const closed = waitForClose(socket);
  socket.disconnect();
  await closed;
}

/** A bot owner whose bot connected once and is offline now. */
async function offlineOwner(chosen: Partial<AlertPreferences>) {
  const owner = await createBotOwner(server);
  expect((await call('PUT', '/me/alerts', preferences(chosen), owner.token)).status).toBe(200);
  await stop(await connectBot(owner));
  await eventWritten(owner.user.id, 'disconnected');
  return owner;
}

describe('a PC offline and its game accounts', () => {
  it('gives one incident and one message: the accounts in error are named in the bot’s, with no recovery of their own', async () => {
    const owner = await createBotOwner(server, { accounts: ['Rosa', 'Iris'] });
    await call('PUT', '/me/alerts', preferences(), owner.token);
    const bot = await connectBot(owner);
    const watcher = await connectAndAuthenticate(server, {
      type: 'client',
      token: owner.token,
      hwid: owner.hwid,
    });
    sockets.push(watcher.socket);
    const reported = statusReported(watcher.socket, 'error');
    bot.emit('bot_update', {
      accounts: [account('Rosa', { status: 'error', message: 'Bloqué' }), account('Iris')],
    });
    await reported;
    await eventWritten(owner.user.id, 'error');
    await evaluateAlerts(server.ctx);
    expect(await titles(owner)).toEqual(['Compte Rosa en erreur']);

    await stop(bot);
    await eventWritten(owner.user.id, 'disconnected');
    const start = Date.now();
    await evaluateAlerts(server.ctx, new Date(start + 6 * MINUTE));
    await evaluateAlerts(server.ctx, new Date(start + 7 * MINUTE));
    const offline = await notificationsOf(owner);
    expect(offline.map((entry) => entry.title)).toEqual([
      'Votre bot est hors ligne',
      'Compte Rosa en erreur',
    ]);
    expect(offline[0]?.body).toContain('Compte de jeu en erreur avant la coupure : Rosa');

    await connectBot(owner);
    await eventWritten(owner.user.id, 'connected', 2);
    await evaluateAlerts(server.ctx, new Date(start + 8 * MINUTE));
    expect(await titles(owner)).toEqual([
      'Votre bot est de nouveau en ligne',
      'Votre bot est hors ligne',
      'Compte Rosa en erreur',
    ]);
  });
});

describe('reminders', () => {
  it('repeat while the incident stays open, at the chosen pace, and stop when asked', async () => {
    const refused = await call(
      'PUT',
      '/me/alerts',
      preferences({ reminderHours: 2 as 1 }),
      (await server.createUser()).token,
    );
    expect(refused.status).toBe(400);

    const owner = await offlineOwner({ reminderHours: 1 });
    const start = Date.now();
    await evaluateAlerts(server.ctx, new Date(start + 6 * MINUTE));
    await evaluateAlerts(server.ctx, new Date(start + 50 * MINUTE));
    expect(await titles(owner)).toEqual(['Votre bot est hors ligne']);
    await evaluateAlerts(server.ctx, new Date(start + 67 * MINUTE));
    await evaluateAlerts(server.ctx, new Date(start + 90 * MINUTE));
    const reminded = await notificationsOf(owner);
    expect(reminded.map((entry) => entry.title)).toEqual([
      'Rappel : Votre bot est hors ligne',
      'Votre bot est hors ligne',
    ]);
    expect(reminded[0]?.body).toContain('Toujours en cours, depuis 1 h 7 min');
    await evaluateAlerts(server.ctx, new Date(start + 128 * MINUTE));
    expect(await titles(owner)).toHaveLength(3);

    await call('PUT', '/me/alerts', preferences({ reminderHours: 0 }), owner.token);
    await evaluateAlerts(server.ctx, new Date(start + 10 * HOUR));
    expect(await titles(owner)).toHaveLength(3);
  });
});

describe('the daily digest by e-mail', () => {
  it('sends the day’s alerts in one mail once the day is over, and none of them one by one', async () => {
    const owner = await offlineOwner({
      channels: { inApp: true, email: true, discord: false },
      emailDigest: true,
    });
    // Alerts of one Paris day, whatever the hour the test runs at (midnight must not fall between them).
    let start = Date.now();
    while (parisDay(new Date(start)) !== parisDay(new Date(start + 30 * MINUTE))) start += 30 * MINUTE;
    await evaluateAlerts(server.ctx, new Date(start + 6 * MINUTE));
    await connectBot(owner);
    await eventWritten(owner.user.id, 'connected', 2);
    await evaluateAlerts(server.ctx, new Date(start + 8 * MINUTE));
    expect(await titles(owner)).toEqual(['Votre bot est de nouveau en ligne', 'Votre bot est hors ligne']);
    const queued = () => server.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner.user.email));
    expect(await queued()).toEqual([]);

    // The next Paris day: one mail with both.
    await evaluateAlerts(server.ctx, new Date(start + 30 * HOUR));
    await evaluateAlerts(server.ctx, new Date(start + 31 * HOUR));
    const digest = await server.mail.waitFor({ to: owner.user.email, subject: 'Résumé de vos alertes du' });
    expect(digest.text).toContain('2 messages');
    expect(digest.text).toContain('Votre bot est hors ligne');
    expect(digest.text).toContain('Votre bot est de nouveau en ligne');
    expect(await queued()).toHaveLength(1);
  });
});

describe('a channel that keeps failing', () => {
  const health = async (user: TestUser) =>
    (await call<{ data: ChannelHealth }>('GET', '/me/alerts/channels', undefined, user.token)).body.data;
  const failureNotices = async (user: TestUser) =>
    (await notificationsOf(user)).filter((entry) => entry.rule === 'channel_failure');

  it('Discord answering 404: shown failing with the error and told in-app once; a new webhook clears it', async () => {
    const owner = await offlineOwner({
      channels: { inApp: true, email: false, discord: true },
      discordWebhookUrl: WEBHOOK,
    });
    expect(await health(owner)).toEqual({ email: null, discord: null });
    discord.nextAnswers.push({ status: 404 });
    expect((await call('POST', '/me/alerts/test', { channel: 'discord' }, owner.token)).status).toBe(200);
    await vi.waitFor(async () => expect((await health(owner)).discord).not.toBeNull());
    expect((await health(owner)).discord?.lastError).toContain('HTTP 404');

    // The next alert fails the same way: still one notice.
    discord.nextAnswers.push({ status: 404 });
    const requests = discord.requests;
    await evaluateAlerts(server.ctx, new Date(Date.now() + 6 * MINUTE));
    await vi.waitFor(() => expect(discord.requests).toBeGreaterThan(requests));
    await vi.waitFor(async () => expect(await titles(owner)).toContain('Votre bot est hors ligne'));
    const notices = await failureNotices(owner);
    expect(notices.map((entry) => entry.title)).toEqual(['Vos alertes Discord n’arrivent plus']);
    expect(notices[0]?.body).toContain('HTTP 404');

    const other = WEBHOOK.replace('223456789012345678', '323456789012345678');
    await call(
      'PUT',
      '/me/alerts',
      preferences({ channels: { inApp: true, email: false, discord: true }, discordWebhookUrl: other }),
      owner.token,
    );
    expect((await health(owner)).discord).toBeNull();
  });

  it('mail refused by the SMTP server: failing until a mail goes through, told in-app once', async () => {
    const owner = await server.createUser();
    await call(
      'PUT',
      '/me/alerts',
      preferences({ channels: { inApp: true, email: true, discord: false } }),
      owner.token,
    );
    server.mail.refusedAddresses.add(owner.user.email.toLowerCase());
    expect((await call('POST', '/me/alerts/test', { channel: 'email' }, owner.token)).status).toBe(200);
    await vi.waitFor(async () => expect((await health(owner)).email?.lastError).toContain('550'));
    // The outbox retries the refused mail: more failures, still one notice.
    await vi.waitFor(async () => {
      const [mail] = await server.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner.user.email));
      expect(mail?.attempts).toBeGreaterThanOrEqual(3);
    });
    expect((await failureNotices(owner)).map((entry) => entry.title)).toEqual([
      'Vos alertes par e-mail n’arrivent plus',
    ]);

    server.mail.refusedAddresses.delete(owner.user.email.toLowerCase());
    await server.mail.waitFor({ to: owner.user.email, subject: 'Test des alertes' });
    await vi.waitFor(async () => expect((await health(owner)).email).toBeNull());
  });
});

describe('pruning', () => {
  it('deletes the notifications older than the retention setting, read or not', async () => {
    const user = await server.createUser();
    const admin = { id: null, username: null, ip: null };
    await updateSettings(server.ctx, { patch: { notificationRetentionDays: 30 }, actor: admin });
    const row = (daysAgo: number) => ({
      id: newId(),
      userId: user.user.id,
      kind: 'info' as const,
      rule: 'channel_test' as const,
      title: `Il y a ${daysAgo} jours`,
      body: '…',
      createdAt: new Date(Date.now() - daysAgo * 24 * HOUR),
    });
    await server.ctx.db.insert(notifications).values([row(31), row(29), { ...row(45), readAt: new Date() }]);
    expect(await pruneNotifications(server.ctx)).toBeGreaterThanOrEqual(2);
    expect(await titles(user)).toEqual(['Il y a 29 jours']);
    await updateSettings(server.ctx, { patch: { notificationRetentionDays: 90 }, actor: admin });
  });
});
