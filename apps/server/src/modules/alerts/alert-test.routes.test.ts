import { type AlertPreferences, DEFAULT_ALERT_PREFERENCES, type NotificationsAnswer } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DiscordReceiver } from '../../../test/discord-receiver.ts';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';

const WEBHOOK = 'https://discord.com/api/webhooks/123456789012345678/Abc-def_ghijklmnopqrstuvwxyz0123';

let server: TestServer;
let discord: DiscordReceiver;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  discord = new DiscordReceiver();
  const discordUrl = await discord.start();
  server = await startTestServer({
    env: { DISCORD_API_URL: discordUrl },
    // No periodic work: the test message must go out because it was asked for, at once.
    alerts: { evaluateEveryMs: 3_600_000, discordPollMs: 3_600_000 },
    mail: { pollMs: 3_600_000 },
    rateLimits: { alertTest: { max: 3, windowMs: 60_000 } },
  });
  call = apiClient(server);
});
afterAll(async () => {
  await server.close();
  await discord.close();
});

const withDiscord: AlertPreferences = {
  ...DEFAULT_ALERT_PREFERENCES,
  channels: { inApp: true, email: true, discord: true },
  discordWebhookUrl: WEBHOOK,
};

describe('POST /me/alerts/test', () => {
  it('sends a test through the real mail outbox to the SMTP server, saying its time zone', async () => {
    const { token, user } = await server.createUser();
    const answer = await call('POST', '/me/alerts/test', { channel: 'email' }, token);
    expect(answer.status).toBe(200);
    const mail = await server.mail.waitFor({ to: user.email, subject: 'Test des alertes' });
    expect(mail.text).toContain('(heure de Paris)');
  });

  it('posts a test to the saved Discord webhook through the Discord outbox', async () => {
    const { token } = await server.createUser();
    await call('PUT', '/me/alerts', withDiscord, token);
    const before = discord.received.length;
    expect((await call('POST', '/me/alerts/test', { channel: 'discord' }, token)).status).toBe(200);
    await vi.waitFor(() => expect(discord.received.length).toBe(before + 1), { timeout: 5_000 });
    const embed = discord.received.at(-1)?.body.embeds?.[0];
    expect(embed?.title).toBe('Test des alertes');
    expect(embed?.description).toContain('(heure de Paris)');
  });

  it('asks for a saved webhook before testing Discord', async () => {
    const { token } = await server.createUser();
    const answer = await call('POST', '/me/alerts/test', { channel: 'discord' }, token);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('DISCORD_WEBHOOK_REQUIRED');
  });

  it('writes an in-app notification the bell counts', async () => {
    const { token } = await server.createUser();
    expect((await call('POST', '/me/alerts/test', { channel: 'inApp' }, token)).status).toBe(200);
    const listed = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, token);
    expect(listed.body.unread).toBe(1);
    expect(listed.body.data[0]).toMatchObject({
      kind: 'info',
      rule: 'channel_test',
      title: 'Test des alertes',
    });
  });

  it('is rate-limited per user, and closed to strangers', async () => {
    const { token } = await server.createUser();
    for (let i = 0; i < 3; i++)
      expect((await call('POST', '/me/alerts/test', { channel: 'inApp' }, token)).status).toBe(200);
    const refused = await call('POST', '/me/alerts/test', { channel: 'inApp' }, token);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect((await call('POST', '/me/alerts/test', { channel: 'inApp' })).status).toBe(401);
  });
});
