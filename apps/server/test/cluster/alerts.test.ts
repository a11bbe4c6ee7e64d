import type { NotificationsAnswer } from '@bot/contracts';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alertIncidents, evaluateAlerts } from '../../src/modules/alerts/index.ts';
import { mailOutbox } from '../../src/modules/mail/index.ts';
import { apiClient, type TestServer } from '../harness.ts';
import {
  account,
  collect,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  type TestSocket,
} from '../helpers/realtime.ts';
import { type InProcessCluster, startInProcessCluster } from './in-process-cluster.ts';

let cluster: InProcessCluster;
let nodeA: TestServer;
let nodeB: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  // Both nodes evaluate every 20 ms: they compete for the evaluation all the time.
  cluster = await startInProcessCluster({ nodes: 2, alerts: { evaluateEveryMs: 20 } });
  [nodeA, nodeB] = cluster.nodes as [TestServer, TestServer];
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await cluster?.close();
});

/** Subjects of the mails to `to`, whichever node's outbox worker sent them. */
const mailsTo = (to: string) =>
  [...nodeA.mail.messages, ...nodeB.mail.messages]
    .filter((mail) => mail.to === to)
    .map((mail) => mail.subject);

describe('alerts on several nodes', () => {
  it('send one alert per incident, whichever node evaluates', async () => {
    const owner = await createBotOwner(nodeB, { accounts: ['Rosa'] });
    const call = apiClient(nodeA);
    const saved = await call(
      'PUT',
      '/me/alerts',
      {
        botOffline: true,
        offlineMinutes: 5,
        accountError: true,
        packageExpiring: false,
        payments: false,
        channels: { inApp: true, email: true, discord: false },
        discordWebhookUrl: null,
      },
      owner.token,
    );
    expect(saved.status).toBe(200);
    const { socket } = await connectOwnerBot(nodeB, owner);
    sockets.push(socket);
    socket.emit('bot_update', {
      accounts: [account('Rosa', { status: 'error', message: 'Inventaire plein' })],
    });

    await vi.waitFor(
      async () => {
        const answer = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, owner.token);
        expect(answer.body.unread).toBe(1);
      },
      { timeout: 10_000 },
    );
    // More evaluations, racing on both nodes (and their timers keep running meanwhile).
    await Promise.all(Array.from({ length: 10 }, (_, i) => evaluateAlerts((i % 2 ? nodeA : nodeB).ctx)));
    const db = nodeA.ctx.db;
    await vi.waitFor(async () => {
      const waiting = await db.select().from(mailOutbox).where(isNull(mailOutbox.sentAt));
      expect(waiting).toEqual([]);
    });
    // The outbox is empty: every mail queued has been handed to one node's SMTP receiver.
    await vi.waitFor(() => expect(mailsTo(owner.user.email)).toEqual(['[BotForge] Compte Rosa en erreur']));
    const answer = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, owner.token);
    expect(answer.body.data).toHaveLength(1);
    const incidents = await db.select().from(alertIncidents).where(eq(alertIncidents.userId, owner.user.id));
    expect(incidents).toHaveLength(1);

    // The account recovers: one recovery message, whichever node sees it first.
    socket.emit('bot_update', { accounts: [account('Rosa', { status: 'fighting' })] });
    await vi.waitFor(
      async () => {
        const listed = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, owner.token);
        expect(listed.body.data.map((entry) => entry.kind)).toEqual(['recovery', 'alert']);
      },
      { timeout: 10_000 },
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => evaluateAlerts((i % 2 ? nodeA : nodeB).ctx)));
    await vi.waitFor(async () => {
      const waiting = await db.select().from(mailOutbox).where(isNull(mailOutbox.sentAt));
      expect(waiting).toEqual([]);
    });
    await vi.waitFor(() =>
      expect(mailsTo(owner.user.email).sort()).toEqual([
        '[BotForge] Compte Rosa en erreur',
        '[BotForge] Compte Rosa reparti',
      ]),
    );
    expect(
      (await call<NotificationsAnswer>('GET', '/me/notifications', undefined, owner.token)).body.data,
    ).toHaveLength(2);
  });

  it('fleet alerts read the bots of every node, alert once, and ring the staff’s bell on every node', async () => {
    const staff = await nodeA.createUser({ permissions: ['can_manageMap'] });
    const saved = await apiClient(nodeB)(
      'PUT',
      '/me/alerts/fleet',
      { fleetErrors: true, fleetErrorPercent: 50, paymentWebhooks: false, mailBacklog: false },
      staff.token,
    );
    expect(saved.status).toBe(200);
    const bells = await Promise.all(
      [nodeA, nodeB].map(async (node) => {
        const { socket } = await connectAndAuthenticate(node, { type: 'admin', token: staff.token });
        sockets.push(socket);
        return collect(socket, 'notification');
      }),
    );
    const owner = await createBotOwner(nodeA, { accounts: ['Iris'] });
    const { socket: bot } = await connectOwnerBot(nodeA, owner);
    sockets.push(bot);
    bot.emit('bot_update', { accounts: [account('Iris', { status: 'error' })] });

    const call = apiClient(nodeB);
    await vi.waitFor(
      async () => {
        const answer = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, staff.token);
        expect(answer.body.data.map((entry) => entry.rule)).toEqual(['fleet_errors']);
      },
      { timeout: 10_000 },
    );
    // Whichever node evaluated, the staff's browsers on both nodes heard of it.
    await vi.waitFor(() => expect(bells.map((rings) => rings.length)).toEqual([1, 1]));
    await Promise.all(Array.from({ length: 10 }, (_, i) => evaluateAlerts((i % 2 ? nodeA : nodeB).ctx)));
    const incidents = await nodeA.ctx.db
      .select()
      .from(alertIncidents)
      .where(eq(alertIncidents.userId, staff.user.id));
    expect(incidents).toHaveLength(1);
    expect(
      (await call<NotificationsAnswer>('GET', '/me/notifications', undefined, staff.token)).body.data,
    ).toHaveLength(1);
  });
});
