import type {
  FleetAlertPreferences,
  FleetAlertPreferencesAnswer,
  NotificationsAnswer,
  Permission,
} from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { announce } from '../../../test/helpers/events.ts';
import {
  account,
  collect,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  type TestSocket,
  waitFor,
} from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { userGrants } from '../access/index.ts';
import { auditLog } from '../audit/index.ts';
import { mailOutbox } from '../mail/index.ts';
import { evaluateAlerts } from './alert-evaluator.ts';
import { alertIncidents } from './alerts.table.ts';

const MINUTE = 60_000;
const WEBHOOK_SECRET = 'whsec_test_fleet_alerts';
const stripe = new Stripe('sk_test_not_used');

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({
    env: { STRIPE_SECRET_KEY: 'sk_test_not_used', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    // The periodic evaluation stays out of the way: these tests call it with the time they need.
    alerts: { evaluateEveryMs: 3_600_000, quietMs: 15 * MINUTE },
    mail: { pollMs: 50 },
  });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

const fleet = (overrides: Partial<FleetAlertPreferences> = {}): FleetAlertPreferences => ({
  fleetErrors: false,
  fleetErrorPercent: 20,
  paymentWebhooks: false,
  mailBacklog: false,
  releaseHalted: false,
  keySetExpiring: false,
  ...overrides,
});

async function notificationsOf(user: TestUser): Promise<NotificationsAnswer> {
  const answer = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, user.token);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** A staff member with the permissions given and in-app and e-mail alerts. */
async function staffWatching(
  permissions: Permission[],
  preferences: FleetAlertPreferences,
): Promise<TestUser> {
  const staff = await server.createUser({ permissions });
  const channels = await call(
    'PUT',
    '/me/alerts',
    {
      botOffline: false,
      offlineMinutes: 10,
      accountError: false,
      packageExpiring: false,
      payments: false,
      channels: { inApp: true, email: true, discord: false },
      discordWebhookUrl: null,
    },
    staff.token,
  );
  expect(channels.status).toBe(200);
  const saved = await call('PUT', '/me/alerts/fleet', preferences, staff.token);
  expect(saved.status).toBe(200);
  return staff;
}

describe('choosing fleet alerts', () => {
  it('is for staff, each alert by its permission, and every change is audited', async () => {
    const customer = await server.createUser();
    const refused = await call('GET', '/me/alerts/fleet', undefined, customer.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN' });

    const settingsStaff = await server.createUser({ permissions: ['can_manageSettings'] });
    const initial = await call<FleetAlertPreferencesAnswer>(
      'GET',
      '/me/alerts/fleet',
      undefined,
      settingsStaff.token,
    );
    expect(initial.body).toEqual({
      data: fleet(),
      allowed: ['payment_webhooks', 'mail_backlog', 'release_halted', 'key_set_expiring'],
    });

    // The map's alert needs a fleet permission this member does not hold: the server says so.
    const forbidden = await call(
      'PUT',
      '/me/alerts/fleet',
      fleet({ fleetErrors: true }),
      settingsStaff.token,
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({
      code: 'FLEET_ALERT_FORBIDDEN',
      error: 'Vos permissions ne vous ouvrent pas cette alerte de la flotte.',
    });
    const badThreshold = await call(
      'PUT',
      '/me/alerts/fleet',
      fleet({ fleetErrorPercent: 0 }),
      settingsStaff.token,
    );
    expect(badThreshold.status).toBe(400);

    const chosen = fleet({ paymentWebhooks: true, mailBacklog: true });
    const saved = await call<FleetAlertPreferencesAnswer>(
      'PUT',
      '/me/alerts/fleet',
      chosen,
      settingsStaff.token,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual(chosen);
    // Saving the same choice again changes nothing and writes nothing.
    await call('PUT', '/me/alerts/fleet', chosen, settingsStaff.token);
    const entries = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alerts.fleet_update'), eq(auditLog.actorId, settingsStaff.user.id)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ targetType: 'user', targetId: settingsStaff.user.id, after: chosen });
    expect(entries[0]?.before).toEqual(fleet());

    // A rule kept from a permission since lost neither blocks the other choices nor survives the save.
    const mapWatcher = await server.createUser({ permissions: ['can_manageSettings', 'can_manageMap'] });
    await call('PUT', '/me/alerts/fleet', fleet({ fleetErrors: true }), mapWatcher.token);
    await server.ctx.db
      .delete(userGrants)
      .where(and(eq(userGrants.userId, mapWatcher.user.id), eq(userGrants.permission, 'can_manageMap')));
    await announce(server.ctx, 'user.changed', { userId: mapWatcher.user.id });
    await vi.waitFor(async () => {
      const kept = await call<FleetAlertPreferencesAnswer>(
        'PUT',
        '/me/alerts/fleet',
        fleet({ fleetErrors: true, mailBacklog: true }),
        mapWatcher.token,
      );
      expect(kept.status).toBe(200);
      expect(kept.body.data).toEqual(fleet({ mailBacklog: true }));
    });

    // The customer's own alerts are untouched by the fleet's.
    const own = await call<{ data: { channels: { email: boolean } } }>(
      'GET',
      '/me/alerts',
      undefined,
      settingsStaff.token,
    );
    expect(own.body.data.channels).toEqual({ inApp: true, email: false, discord: false });
  });
});

describe('the share of bots in error', () => {
  it('alerts once when it reaches the threshold, rings the bell live, and recovers once', async () => {
    const staff = await staffWatching(['can_manageMap'], fleet({ fleetErrors: true, fleetErrorPercent: 50 }));
    const admin = await connectAndAuthenticate(server, { type: 'admin', token: staff.token });
    sockets.push(admin.socket);
    const rings = collect(admin.socket, 'notification');

    const owners = await Promise.all([createBotOwner(server), createBotOwner(server)]);
    const bots = await Promise.all(
      owners.map(async (owner) => {
        const { socket } = await connectOwnerBot(server, owner);
        sockets.push(socket);
        return socket;
      }),
    );
    const report = async (index: number, status: 'error' | 'gathering') => {
      const owner = owners[index];
      if (!owner) throw new Error('no owner');
      bots[index]?.emit('bot_update', { accounts: [account(owner.accounts[0] ?? '', { status })] });
      await vi.waitFor(async () => {
        const state = (await server.ctx.live.onlineBots()).find((bot) => bot.hwid === owner.hwid);
        expect(state?.accounts[0]?.status).toBe(status);
      });
    };
    await report(0, 'gathering');
    await report(1, 'gathering');
    await evaluateAlerts(server.ctx);
    expect((await notificationsOf(staff)).data).toEqual([]);

    await report(0, 'error');
    const rang = waitFor(admin.socket, 'notification');
    await evaluateAlerts(server.ctx);
    await rang;
    await evaluateAlerts(server.ctx); // still 1 of 2: nothing new
    const alerted = await notificationsOf(staff);
    expect(alerted.data).toEqual([
      expect.objectContaining({
        kind: 'alert',
        rule: 'fleet_errors',
        title: 'Flotte : 50 % des bots en erreur',
      }),
    ]);
    expect(alerted.data[0]?.body).toContain('1 bot sur 2 en ligne a un compte de jeu en erreur');
    await server.mail.waitFor({ to: staff.user.email, subject: 'Flotte : 50 % des bots en erreur' });
    expect(rings).toHaveLength(1);

    await report(0, 'gathering');
    await evaluateAlerts(server.ctx);
    const recovered = await notificationsOf(staff);
    expect(recovered.data.map((entry) => entry.kind)).toEqual(['recovery', 'alert']);
    expect(recovered.data[0]?.title).toBe(
      'Flotte : la part des bots en erreur est repassée sous votre seuil',
    );
    await vi.waitFor(() => expect(rings).toHaveLength(2));
  });
});

describe('payment webhooks failing', () => {
  const deliver = (payload: string, signature: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });

  it('alerts after three refused calls in a row and recovers when Stripe is accepted again', async () => {
    const staff = await staffWatching(['can_manageSettings'], fleet({ paymentWebhooks: true }));
    const payload = JSON.stringify({
      id: `evt_${newId()}`,
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    });
    const wrongSecret = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: 'whsec_rotated_elsewhere',
    });

    for (const attempt of [1, 2])
      expect((await deliver(payload, wrongSecret)).statusCode, `call ${attempt}`).toBe(400);
    await evaluateAlerts(server.ctx);
    expect((await notificationsOf(staff)).data).toEqual([]); // two failures are not yet an incident

    expect((await deliver(payload, wrongSecret)).statusCode).toBe(400);
    await evaluateAlerts(server.ctx);
    const alerted = await notificationsOf(staff);
    expect(alerted.data).toEqual([
      expect.objectContaining({
        kind: 'alert',
        rule: 'payment_webhooks',
        title: 'Webhooks de paiement Stripe en échec',
      }),
    ]);
    const mail = await server.mail.waitFor({
      to: staff.user.email,
      subject: 'Webhooks de paiement Stripe en échec',
    });
    expect(mail.text).toContain('STRIPE_WEBHOOK_SECRET');
    expect(mail.text).toContain('alertes de la flotte');

    // Stripe stops calling (its retries space out): fewer failures lately is not a recovery.
    await evaluateAlerts(server.ctx, new Date(Date.now() + 20 * MINUTE));
    expect((await notificationsOf(staff)).data).toHaveLength(1);

    const accepted = await deliver(
      payload,
      stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    );
    expect(accepted.statusCode).toBe(200);
    await evaluateAlerts(server.ctx);
    expect((await notificationsOf(staff)).data.map((entry) => entry.title)).toEqual([
      'Webhooks de paiement Stripe rétablis',
      'Webhooks de paiement Stripe en échec',
    ]);
  });
});

describe('the mail outbox backing up', () => {
  it('alerts when a mail waits too long, recovers once it leaves, and ends silently for staff who lose the permission', async () => {
    const staff = await staffWatching(['can_manageSettings'], fleet({ mailBacklog: true }));
    const leaving = await staffWatching(['can_manageSettings'], fleet({ mailBacklog: true }));
    // A mail the SMTP server keeps refusing: still waiting, in backoff, twenty minutes later.
    const stuckId = newId();
    await server.ctx.db.insert(mailOutbox).values({
      id: stuckId,
      to: 'client@example.test',
      subject: 'Activation',
      attempts: 4,
      nextAttemptAt: new Date(Date.now() + 60 * MINUTE),
      lastError: '550 5.1.1 <client@example.test>: Recipient address rejected',
      createdAt: new Date(Date.now() - 20 * MINUTE),
    });

    await evaluateAlerts(server.ctx);
    for (const member of [staff, leaving]) {
      const alerted = await notificationsOf(member);
      expect(alerted.data).toEqual([
        expect.objectContaining({ kind: 'alert', rule: 'mail_backlog', title: 'File des e-mails en retard' }),
      ]);
      // The SMTP error is told, the customer's address it quotes is not (it may go to Discord).
      expect(alerted.data[0]?.body).toContain('Recipient address rejected');
      expect(alerted.data[0]?.body).not.toContain('client@example.test');
    }

    // One of them loses the permission: their incident ends, and nothing is said.
    await server.ctx.db.delete(userGrants).where(eq(userGrants.userId, leaving.user.id));
    await announce(server.ctx, 'user.changed', { userId: leaving.user.id });
    await vi.waitFor(async () => {
      await evaluateAlerts(server.ctx);
      const [incident] = await server.ctx.db
        .select()
        .from(alertIncidents)
        .where(eq(alertIncidents.userId, leaving.user.id));
      expect(incident?.closedAt).not.toBeNull();
      expect(incident?.recoveryNotifiedAt).toBeNull();
    });

    await server.ctx.db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, stuckId));
    await evaluateAlerts(server.ctx);
    expect((await notificationsOf(staff)).data.map((entry) => entry.title)).toEqual([
      'File des e-mails résorbée',
      'File des e-mails en retard',
    ]);
    expect((await notificationsOf(leaving)).data).toHaveLength(1);
  });
});
