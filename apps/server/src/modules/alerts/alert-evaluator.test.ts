import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertPreferences, NotificationsAnswer } from '@bot/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DiscordReceiver } from '../../../test/discord-receiver.ts';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  account,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  statusReported,
  type TestSocket,
  waitForClose,
} from '../../../test/helpers/realtime.ts';
import { botEvents } from '../bots/index.ts';
import { evaluateAlerts } from './alert-evaluator.ts';
import { alertIncidents, discordOutbox } from './alerts.table.ts';

const MINUTE = 60_000;
const WEBHOOK = 'https://discord.com/api/webhooks/123456789012345678/Abc-def_ghijklmnopqrstuvwxyz0123';

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
    mail: { pollMs: 50 },
  });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
  await discord.close();
});

const allChannels = (overrides: Partial<AlertPreferences> = {}): AlertPreferences => ({
  botOffline: true,
  offlineMinutes: 5,
  accountError: true,
  packageExpiring: false,
  payments: false,
  channels: { inApp: true, email: true, discord: true },
  discordWebhookUrl: WEBHOOK,
  reminderHours: 0,
  emailDigest: false,
  ...overrides,
});

async function notificationsOf(token: string): Promise<NotificationsAnswer> {
  const answer = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, token);
  expect(answer.status).toBe(200);
  return answer.body;
}

async function eventWritten(
  userId: string,
  kind: 'connected' | 'disconnected' | 'error' | 'recovered',
  count = 1,
) {
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

describe('the offline alert', () => {
  it('alerts once after N minutes offline on every channel, then once when the bot is back', async () => {
    const owner = await createBotOwner(server);
    const saved = await call('PUT', '/me/alerts', allChannels({ accountError: false }), owner.token);
    expect(saved.status).toBe(200);
    const mailsBefore = server.mail.messages.length;
    const discordBefore = discord.received.length;

    await stop(await connectBot(owner));
    await eventWritten(owner.user.id, 'disconnected');
    const start = Date.now();

    await evaluateAlerts(server.ctx, new Date(start + 4 * MINUTE));
    expect((await notificationsOf(owner.token)).unread).toBe(0);

    await evaluateAlerts(server.ctx, new Date(start + 6 * MINUTE));
    await evaluateAlerts(server.ctx, new Date(start + 7 * MINUTE)); // still offline: nothing new
    const alerted = await notificationsOf(owner.token);
    expect(alerted.unread).toBe(1);
    expect(alerted.data).toEqual([
      expect.objectContaining({
        kind: 'alert',
        rule: 'bot_offline',
        title: 'Votre bot est hors ligne',
        readAt: null,
      }),
    ]);
    const mail = await server.mail.waitFor({
      to: owner.user.email,
      subject: 'Votre bot est hors ligne',
      after: mailsBefore,
    });
    expect(mail.text).toContain('depuis 6 min');
    await vi.waitFor(() => expect(discord.received.length).toBe(discordBefore + 1));
    const webhook = discord.received.at(-1);
    expect(webhook?.id).toBe('123456789012345678');
    expect(webhook?.body.embeds?.[0]).toMatchObject({ title: 'Votre bot est hors ligne', color: 0xe74c3c });

    const back = await connectBot(owner);
    await eventWritten(owner.user.id, 'connected', 2);
    await evaluateAlerts(server.ctx, new Date(start + 8 * MINUTE));
    await evaluateAlerts(server.ctx, new Date(start + 9 * MINUTE));
    const recovered = await notificationsOf(owner.token);
    expect(recovered.data.map((entry) => entry.kind)).toEqual(['recovery', 'alert']);
    expect(recovered.data[0]?.title).toBe('Votre bot est de nouveau en ligne');
    await server.mail.waitFor({ to: owner.user.email, subject: 'de nouveau en ligne', after: mailsBefore });
    await vi.waitFor(() => expect(discord.received.length).toBe(discordBefore + 2));
    expect(discord.received.at(-1)?.body.embeds?.[0]?.color).toBe(0x2ecc71);
    expect(
      server.mail.messages.slice(mailsBefore).filter((m) => m.to.includes(owner.user.email)),
    ).toHaveLength(2);

    // A bot that drops again within the quiet period: no new alert until the period is over.
    await stop(back);
    await eventWritten(owner.user.id, 'disconnected', 2);
    await evaluateAlerts(server.ctx, new Date(start + 16 * MINUTE));
    expect((await notificationsOf(owner.token)).data).toHaveLength(2);
    await evaluateAlerts(server.ctx, new Date(start + 24 * MINUTE));
    const again = await notificationsOf(owner.token);
    expect(again.data.map((entry) => entry.kind)).toEqual(['alert', 'recovery', 'alert']);
  });

  it('keeps one open incident per subject, in the database, whatever the number of evaluations', async () => {
    const owner = await createBotOwner(server);
    await call(
      'PUT',
      '/me/alerts',
      allChannels({ channels: { inApp: true, email: false, discord: false } }),
      owner.token,
    );
    await stop(await connectBot(owner));
    await eventWritten(owner.user.id, 'disconnected');
    const later = new Date(Date.now() + 10 * MINUTE);
    // Evaluations racing (as two nodes would): the advisory lock lets one through at a time.
    await Promise.all([1, 2, 3].map(() => evaluateAlerts(server.ctx, later)));
    const incidents = await server.ctx.db
      .select()
      .from(alertIncidents)
      .where(eq(alertIncidents.userId, owner.user.id));
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ rule: 'bot_offline', subject: owner.hwid, closedAt: null });
    expect(incidents[0]?.notifiedAt).not.toBeNull();
    expect((await notificationsOf(owner.token)).unread).toBe(1);
  });

  it('says nothing when the rule is off', async () => {
    const owner = await createBotOwner(server);
    await call('PUT', '/me/alerts', allChannels({ botOffline: false, accountError: false }), owner.token);
    await stop(await connectBot(owner));
    await eventWritten(owner.user.id, 'disconnected');
    await evaluateAlerts(server.ctx, new Date(Date.now() + 60 * MINUTE));
    expect((await notificationsOf(owner.token)).data).toEqual([]);
  });
});

describe('the account error alert', () => {
  it('alerts when a game account goes into error and again when it recovers', async () => {
    const owner = await createBotOwner(server, { accounts: ['Rosa', 'Iris'] });
    await call(
      'PUT',
      '/me/alerts',
      allChannels({ botOffline: false, channels: { inApp: true, email: true, discord: false } }),
      owner.token,
    );
    const bot = await connectBot(owner);
    const watcher = await connectAndAuthenticate(server, {
      type: 'client',
      token: owner.token,
      hwid: owner.hwid,
    });
    sockets.push(watcher.socket);
    const reported = (status: string) => statusReported(watcher.socket, status);
    let next = reported('error');
    bot.emit('bot_update', {
      accounts: [account('Rosa', { status: 'error', message: 'Inventaire plein' }), account('Iris')],
    });
    await next;
    await eventWritten(owner.user.id, 'error');
    await evaluateAlerts(server.ctx);
    const alerted = await notificationsOf(owner.token);
    expect(alerted.data).toEqual([
      expect.objectContaining({ kind: 'alert', rule: 'account_error', title: 'Compte Rosa en erreur' }),
    ]);
    expect(alerted.data[0]?.body).toContain('Inventaire plein');
    await server.mail.waitFor({ to: owner.user.email, subject: 'Compte Rosa en erreur' });

    next = reported('fighting');
    bot.emit('bot_update', { accounts: [account('Rosa', { status: 'fighting' }), account('Iris')] });
    await next;
    await eventWritten(owner.user.id, 'recovered');
    await evaluateAlerts(server.ctx);
    const recovered = await notificationsOf(owner.token);
    expect(recovered.data.map((entry) => entry.title)).toEqual([
      'Compte Rosa reparti',
      'Compte Rosa en erreur',
    ]);
    await server.mail.waitFor({ to: owner.user.email, subject: 'Compte Rosa reparti' });
  });
});

describe('the Discord channel', () => {
  /**
   * Waits until every message queued before is sent or given up: the receiver's scripted answers
   * (`nextAnswers`) then go to this test's message, not to a late retry of an earlier one.
   */
  async function outboxSettled(): Promise<void> {
    await vi.waitFor(
      async () => {
        const pending = await server.ctx.db
          .select({ id: discordOutbox.id })
          .from(discordOutbox)
          .where(and(isNull(discordOutbox.sentAt), isNull(discordOutbox.failedAt)));
        expect(pending).toEqual([]);
      },
      { timeout: 10_000 },
    );
  }

  it('waits for Discord’s retry_after on a 429, retries failures and gives up on a deleted webhook', async () => {
    const owner = await createBotOwner(server);
    await call(
      'PUT',
      '/me/alerts',
      allChannels({ channels: { inApp: false, email: false, discord: true } }),
      owner.token,
    );
    await outboxSettled();
    const before = discord.received.length;
    const requestsBefore = discord.requests;
    discord.nextAnswers.push({ status: 429, retryAfter: 0.2 }, { status: 502 });
    await stop(await connectBot(owner));
    await eventWritten(owner.user.id, 'disconnected');
    await evaluateAlerts(server.ctx, new Date(Date.now() + 10 * MINUTE));
    // The evaluation's own send is not awaited by evaluateAlerts: the outbox worker sends it.
    await vi.waitFor(() => expect(discord.received.length).toBe(before + 1), { timeout: 5_000 });
    expect(discord.requests - requestsBefore).toBe(3);
    const [row] = await server.ctx.db.select().from(discordOutbox).where(eq(discordOutbox.attempts, 2));
    expect(row?.sentAt).not.toBeNull();

    await outboxSettled();
    discord.nextAnswers.push({ status: 404 });
    const gone = await createBotOwner(server);
    await call(
      'PUT',
      '/me/alerts',
      allChannels({ channels: { inApp: false, email: false, discord: true } }),
      gone.token,
    );
    await stop(await connectBot(gone));
    await eventWritten(gone.user.id, 'disconnected');
    await evaluateAlerts(server.ctx, new Date(Date.now() + 10 * MINUTE));
    await vi.waitFor(
      async () => {
        const failed = await server.ctx.db
          .select()
          .from(discordOutbox)
          .where(eq(discordOutbox.lastError, 'HTTP 404'));
        expect(failed[0]?.failedAt).not.toBeNull();
        expect(failed[0]?.attempts).toBe(1);
      },
      { timeout: 5_000 },
    );
  });

  it('refuses a redirect from the webhook address: nothing reaches where it points (issue 30)', async () => {
    let internalHits = 0;
    const internal = createServer((_request, response) => {
      internalHits += 1;
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    const { port } = internal.address() as AddressInfo;
    await outboxSettled();
    discord.nextAnswers.push({ status: 307, location: `http://127.0.0.1:${port}/interne` });
    const owner = await createBotOwner(server);
    await call(
      'PUT',
      '/me/alerts',
      allChannels({ channels: { inApp: false, email: false, discord: true } }),
      owner.token,
    );
    await stop(await connectBot(owner));
    await eventWritten(owner.user.id, 'disconnected');
    await evaluateAlerts(server.ctx, new Date(Date.now() + 10 * MINUTE));
    await vi.waitFor(
      async () => {
        const [refused] = await server.ctx.db
          .select()
          .from(discordOutbox)
          .where(eq(discordOutbox.lastError, 'redirection refusée'));
        expect(refused?.failedAt).toBeInstanceOf(Date);
      },
      { timeout: 5_000 },
    );
    expect(internalHits).toBe(0);
    internal.close();
  });
});
