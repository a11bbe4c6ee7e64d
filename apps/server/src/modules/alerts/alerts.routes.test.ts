import {
  type AlertPreferences,
  DEFAULT_ALERT_PREFERENCES,
  ERRORS,
  type NotificationsAnswer,
} from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { account, connectOwnerBot, createBotOwner, type TestSocket } from '../../../test/helpers/realtime.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  // The real periodic evaluation, fast: nothing here calls it by hand.
  server = await startTestServer({ alerts: { evaluateEveryMs: 50 } });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

const preferences = (overrides: Partial<AlertPreferences> = {}): AlertPreferences => ({
  ...DEFAULT_ALERT_PREFERENCES,
  ...overrides,
});

describe('alert preferences', () => {
  it('starts from the defaults and keeps what the user saves', async () => {
    const { token } = await server.createUser();
    const initial = await call<{ data: AlertPreferences }>('GET', '/me/alerts', undefined, token);
    expect(initial.body.data).toEqual(DEFAULT_ALERT_PREFERENCES);
    const wanted = preferences({
      botOffline: true,
      offlineMinutes: 30,
      channels: { inApp: true, email: true, discord: true },
      discordWebhookUrl: 'https://discordapp.com/api/webhooks/123456789012/abcdefghijklmnopqrstuvwxyz',
    });
    const saved = await call<{ data: AlertPreferences }>('PUT', '/me/alerts', wanted, token);
    expect(saved.status).toBe(200);
    expect((await call<{ data: AlertPreferences }>('GET', '/me/alerts', undefined, token)).body.data).toEqual(
      wanted,
    );
  });

  it.each([
    'https://example.com/api/webhooks/123456789012/abcdefghijklmnopqrstuvwxyz',
    'http://discord.com/api/webhooks/123456789012/abcdefghijklmnopqrstuvwxyz',
    'https://discord.com.evil.example/api/webhooks/123456789012/abcdefghijklmnopqrstuvwxyz',
    'https://discord.com/api/webhooks/abc/def',
  ])('refuses %s with a French message', async (url) => {
    const { token } = await server.createUser();
    const answer = await call('PUT', '/me/alerts', preferences({ discordWebhookUrl: url }), token);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      code: 'DISCORD_WEBHOOK_INVALID',
      error: ERRORS.DISCORD_WEBHOOK_INVALID.message,
    });
  });

  it('asks for the webhook when the Discord channel is on', async () => {
    const { token } = await server.createUser();
    const answer = await call(
      'PUT',
      '/me/alerts',
      preferences({ channels: { inApp: true, email: false, discord: true } }),
      token,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('DISCORD_WEBHOOK_REQUIRED');
  });

  it('refuses N outside 1 to 1440 minutes, and strangers', async () => {
    const { token } = await server.createUser();
    expect((await call('PUT', '/me/alerts', preferences({ offlineMinutes: 0 }), token)).status).toBe(400);
    expect((await call('GET', '/me/alerts')).status).toBe(401);
    expect((await call('GET', '/me/notifications')).status).toBe(401);
  });
});

describe('the notification centre', () => {
  it('lists what the periodic evaluation sent, counts unread ones, marks one or all read', async () => {
    const owner = await createBotOwner(server, { accounts: ['Rosa', 'Iris'] });
    await call('PUT', '/me/alerts', preferences({ accountError: true }), owner.token);
    const { socket } = await connectOwnerBot(server, owner);
    sockets.push(socket);
    socket.emit('bot_update', {
      accounts: [
        account('Rosa', { status: 'error', message: 'Bloqué' }),
        account('Iris', { status: 'error' }),
      ],
    });
    const listed = await vi.waitFor(
      async () => {
        const answer = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, owner.token);
        expect(answer.body.unread).toBe(2);
        return answer.body;
      },
      { timeout: 5_000 },
    );
    expect(listed.data.map((entry) => entry.title).sort()).toEqual([
      'Compte Iris en erreur',
      'Compte Rosa en erreur',
    ]);
    const unread = await call<{ data: { unread: number } }>(
      'GET',
      '/me/notifications/unread',
      undefined,
      owner.token,
    );
    expect(unread.body.data.unread).toBe(2);

    const [first] = listed.data;
    const stranger = await server.createUser();
    expect(
      (await call('POST', `/me/notifications/${first?.id}/read`, undefined, stranger.token)).status,
    ).toBe(404);
    expect((await call('POST', `/me/notifications/${first?.id}/read`, undefined, owner.token)).status).toBe(
      200,
    );
    const afterOne = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, owner.token);
    expect(afterOne.body.unread).toBe(1);
    expect(afterOne.body.data.find((entry) => entry.id === first?.id)?.readAt).not.toBeNull();

    expect((await call('POST', '/me/notifications/read-all', undefined, owner.token)).status).toBe(200);
    const afterAll = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, owner.token);
    expect(afterAll.body.unread).toBe(0);
    expect((await call('GET', '/me/notifications', undefined, stranger.token)).body).toEqual({
      data: [],
      unread: 0,
    });
  });
});
