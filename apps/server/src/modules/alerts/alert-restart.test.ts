import type { NotificationsAnswer } from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  connectOwnerBot,
  createBotOwner,
  type TestSocket,
  waitForClose,
} from '../../../test/helpers/realtime.ts';
import { botEvents } from '../bots/index.ts';
import { evaluateAlerts } from './alert-evaluator.ts';

const MINUTE = 60_000;
let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  // The embedded database in the data folder, kept across the restart.
  server = await startTestServer({ openDatabaseFromConfig: true, alerts: { evaluateEveryMs: 3_600_000 } });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

async function disconnectedCount(userId: string): Promise<number> {
  const rows = await server.ctx.db
    .select()
    .from(botEvents)
    .where(and(eq(botEvents.userId, userId), eq(botEvents.kind, 'disconnected')));
  return rows.length;
}

describe('an incident across a restart', () => {
  it('is neither notified again nor forgotten: the recovery still comes once', async () => {
    const call = apiClient(server);
    const owner = await createBotOwner(server);
    await call(
      'PUT',
      '/me/alerts',
      {
        botOffline: true,
        offlineMinutes: 5,
        accountError: false,
        packageExpiring: false,
        payments: false,
        channels: { inApp: true, email: true, discord: false },
        discordWebhookUrl: null,
      },
      owner.token,
    );
    const { socket } = await connectOwnerBot(server, owner);
    const closed = waitForClose(socket);
    socket.disconnect();
    await closed;
    await vi.waitFor(async () => expect(await disconnectedCount(owner.user.id)).toBe(1));
    const start = Date.now();
    await evaluateAlerts(server.ctx, new Date(start + 6 * MINUTE));
    await server.mail.waitFor({ to: owner.user.email, subject: 'Votre bot est hors ligne' });

    await server.restart();

    await evaluateAlerts(server.ctx, new Date(start + 7 * MINUTE));
    const notifications = async () =>
      (await call<NotificationsAnswer>('GET', '/me/notifications', undefined, owner.token)).body.data;
    expect((await notifications()).map((entry) => entry.kind)).toEqual(['alert']);

    const back = await connectOwnerBot(server, owner);
    sockets.push(back.socket);
    await vi.waitFor(async () => {
      const rows = await server.ctx.db
        .select()
        .from(botEvents)
        .where(and(eq(botEvents.userId, owner.user.id), eq(botEvents.kind, 'connected')));
      expect(rows).toHaveLength(2);
    });
    await evaluateAlerts(server.ctx, new Date(start + 8 * MINUTE));
    expect((await notifications()).map((entry) => entry.kind)).toEqual(['recovery', 'alert']);
    await server.mail.waitFor({ to: owner.user.email, subject: 'de nouveau en ligne' });
    expect(server.mail.messages.filter((mail) => mail.to.includes(owner.user.email))).toHaveLength(2);
  });
});
