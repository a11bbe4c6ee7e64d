import {
  DEFAULT_ALERT_PREFERENCES,
  type MaintenanceWindow,
  type MaintenanceWindowsAnswer,
  type NotificationsAnswer,
  type PublicSettings,
} from '@bot/contracts';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import {
  connectOwnerBot,
  createBotOwner,
  type TestSocket,
  waitForClose,
} from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { evaluateAlerts } from '../alerts/index.ts';
import { auditLog } from '../audit/index.ts';
import { botEvents } from '../bots/index.ts';
import { mailOutbox } from '../mail/index.ts';
import {
  cancelMaintenanceWindow,
  createMaintenanceWindow,
  listMaintenanceWindows,
} from './maintenance-windows.service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({
    // The periodic evaluation stays out of the way: these tests call it with the time they need.
    alerts: { evaluateEveryMs: 3_600_000, quietMs: 15 * MINUTE },
    mail: { pollMs: 50 },
  });
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_manageSettings'] });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

async function schedule(body: Record<string, unknown>, token = staff.token) {
  return call<{ data: MaintenanceWindow; code?: string }>('POST', '/admin/maintenance-windows', body, token);
}

async function titles(user: TestUser): Promise<string[]> {
  const answer = await call<NotificationsAnswer>('GET', '/me/notifications', undefined, user.token);
  return answer.body.data.map((entry) => entry.title);
}

async function offlineOwner(options: { reconnect: boolean }) {
  const owner = await createBotOwner(server);
  await call(
    'PUT',
    '/me/alerts',
    { ...DEFAULT_ALERT_PREFERENCES, botOffline: true, offlineMinutes: 5 },
    owner.token,
  );
  const { socket } = await connectOwnerBot(server, owner);
  sockets.push(socket);
  const closed = waitForClose(socket);
  socket.disconnect();
  await closed;
  const written = async (kind: 'connected' | 'disconnected', count: number) =>
    vi.waitFor(async () => {
      const rows = await server.ctx.db
        .select()
        .from(botEvents)
        .where(and(eq(botEvents.userId, owner.user.id), eq(botEvents.kind, kind)));
      expect(rows.length).toBeGreaterThanOrEqual(count);
    });
  await written('disconnected', 1);
  if (options.reconnect) {
    sockets.push((await connectOwnerBot(server, owner)).socket);
    await written('connected', 2);
  }
  return owner;
}

describe('scheduling maintenance windows', () => {
  it('is for can_manageSettings, validated in French, listed, cancellable once and audited', async () => {
    const customer = await server.createUser();
    const body = { startsAt: at(20 * HOUR), endsAt: at(21 * HOUR), message: 'Mise à jour', scope: 'all' };
    expect((await schedule(body, customer.token)).status).toBe(403);
    expect((await call('GET', '/admin/maintenance-windows', undefined, customer.token)).status).toBe(403);

    const backwards = await schedule({ ...body, endsAt: at(19 * HOUR) });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ code: 'MAINTENANCE_WINDOW_INVALID' });
    const past = await schedule({ ...body, startsAt: at(-2 * HOUR), endsAt: at(-HOUR) });
    expect(past.body).toMatchObject({ code: 'MAINTENANCE_WINDOW_INVALID' });
    const tooLong = await schedule({ ...body, endsAt: at(20 * HOUR + 8 * 24 * HOUR) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 'MAINTENANCE_WINDOW_TOO_LONG' });
    const badScope = await schedule({ ...body, scope: 'everything' });
    expect(badScope.status).toBe(400);
    expect((await schedule({ ...body, message: '  ' })).status).toBe(400);

    const created = await schedule(body);
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      message: 'Mise à jour',
      scope: 'all',
      state: 'scheduled',
      createdBy: staff.user.username,
    });
    const listed = await call<MaintenanceWindowsAnswer>(
      'GET',
      '/admin/maintenance-windows',
      undefined,
      staff.token,
    );
    expect(listed.body.data.map((window) => window.id)).toContain(created.body.data.id);

    const cancel = () =>
      call<{ data: MaintenanceWindow }>(
        'POST',
        `/admin/maintenance-windows/${created.body.data.id}/cancel`,
        undefined,
        staff.token,
      );
    const cancelled = await cancel();
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.state).toBe('cancelled');
    const again = await cancel();
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'MAINTENANCE_WINDOW_OVER' });
    const unknown = await call(
      'POST',
      `/admin/maintenance-windows/${newId()}/cancel`,
      undefined,
      staff.token,
    );
    expect(unknown.status).toBe(404);

    const entries = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(like(auditLog.action, 'maintenance_window.%'), eq(auditLog.targetId, created.body.data.id)));
    expect(entries.map((entry) => entry.action).sort()).toEqual([
      'maintenance_window.cancel',
      'maintenance_window.create',
    ]);
  });
});

describe('during and after a window', () => {
  it('shows its message in the banner, mutes the bot alerts, and judges afresh what still holds after it', async () => {
    const window = await schedule({
      startsAt: at(-MINUTE),
      endsAt: at(30 * MINUTE),
      message: 'Maintenance du serveur de jeu jusqu’à 4 h',
      scope: 'all',
    });
    expect(window.status).toBe(200);
    const banner = await call<PublicSettings>('GET', '/settings/public');
    expect(banner.body.maintenanceWindow).toEqual({
      message: 'Maintenance du serveur de jeu jusqu’à 4 h',
      endsAt: window.body.data.endsAt,
    });
    expect(banner.body.announcement).toBe(''); // the announcement setting is untouched

    // One bot drops and comes back inside the window, one stays offline past it.
    const flapping = await offlineOwner({ reconnect: true });
    const gone = await offlineOwner({ reconnect: false });
    await evaluateAlerts(server.ctx, new Date(Date.now() + 20 * MINUTE));
    expect(await titles(gone)).toEqual([]);

    // Just after the window: what still holds waits for the quiet period after its end.
    await evaluateAlerts(server.ctx, new Date(Date.now() + 32 * MINUTE));
    expect(await titles(gone)).toEqual([]);
    await evaluateAlerts(server.ctx, new Date(Date.now() + 46 * MINUTE));
    expect(await titles(gone)).toEqual(['Votre bot est hors ligne']);
    await evaluateAlerts(server.ctx, new Date(Date.now() + 50 * MINUTE));
    expect(await titles(gone)).toEqual(['Votre bot est hors ligne']); // no burst, no repeat
    expect(await titles(flapping)).toEqual([]);
  });

  it('with the fleet scope, mutes the fleet alerts but still tells customers about their bot', async () => {
    const watcher = await server.createUser({ permissions: ['can_manageSettings'] });
    await call(
      'PUT',
      '/me/alerts/fleet',
      { fleetErrors: false, fleetErrorPercent: 20, paymentWebhooks: false, mailBacklog: true },
      watcher.token,
    );
    const owner = await offlineOwner({ reconnect: false });
    await schedule({ startsAt: at(5 * HOUR), endsAt: at(6 * HOUR), message: 'Migration', scope: 'fleet' });
    // A mail the SMTP server keeps refusing, waiting since before the window.
    await server.ctx.db.insert(mailOutbox).values({
      id: newId(),
      to: 'client@example.test',
      subject: 'Activation',
      attempts: 4,
      nextAttemptAt: new Date(Date.now() + 24 * HOUR),
      createdAt: new Date(Date.now() + 4 * HOUR),
    });

    await evaluateAlerts(server.ctx, new Date(Date.now() + 5 * HOUR + 30 * MINUTE));
    expect(await titles(watcher)).toEqual([]);
    expect(await titles(owner)).toEqual(['Votre bot est hors ligne']);

    await evaluateAlerts(server.ctx, new Date(Date.now() + 6 * HOUR + 5 * MINUTE));
    expect(await titles(watcher)).toEqual([]);
    await evaluateAlerts(server.ctx, new Date(Date.now() + 6 * HOUR + 16 * MINUTE));
    expect(await titles(watcher)).toEqual(['File des e-mails en retard']);
    await server.ctx.db.delete(mailOutbox).where(eq(mailOutbox.to, 'client@example.test'));
  });

  it('leaves an incident told before the window untouched during it: its recovery comes once, after', async () => {
    const owner = await createBotOwner(server);
    await call(
      'PUT',
      '/me/alerts',
      { ...DEFAULT_ALERT_PREFERENCES, botOffline: true, offlineMinutes: 5 },
      owner.token,
    );
    const { socket } = await connectOwnerBot(server, owner);
    const closed = waitForClose(socket);
    socket.disconnect();
    await closed;
    await vi.waitFor(async () => {
      const rows = await server.ctx.db
        .select()
        .from(botEvents)
        .where(and(eq(botEvents.userId, owner.user.id), eq(botEvents.kind, 'disconnected')));
      expect(rows).toHaveLength(1);
    });
    // Told an hour later (after the first test's window), before this one.
    await evaluateAlerts(server.ctx, new Date(Date.now() + HOUR));
    expect(await titles(owner)).toEqual(['Votre bot est hors ligne']);
    await schedule({ startsAt: at(3 * HOUR), endsAt: at(4 * HOUR), message: 'Redémarrage', scope: 'all' });

    sockets.push((await connectOwnerBot(server, owner)).socket);
    await vi.waitFor(async () => {
      const rows = await server.ctx.db
        .select()
        .from(botEvents)
        .where(and(eq(botEvents.userId, owner.user.id), eq(botEvents.kind, 'connected')));
      expect(rows).toHaveLength(2);
    });
    await evaluateAlerts(server.ctx, new Date(Date.now() + 3 * HOUR + 30 * MINUTE));
    expect(await titles(owner)).toEqual(['Votre bot est hors ligne']);
    await evaluateAlerts(server.ctx, new Date(Date.now() + 4 * HOUR + 10 * MINUTE));
    await evaluateAlerts(server.ctx, new Date(Date.now() + 4 * HOUR + 20 * MINUTE));
    expect(await titles(owner)).toEqual(['Votre bot est de nouveau en ligne', 'Votre bot est hors ligne']);
  });
});

describe('after a window', () => {
  it('tells at once a condition born after the window ended (only one already there waits)', async () => {
    // The windows of the tests above that still run end now; one ran until a minute ago.
    const actor = { id: staff.user.id, username: staff.user.username, ip: null };
    for (const window of await listMaintenanceWindows(server.ctx))
      if (window.state === 'running') await cancelMaintenanceWindow(server.ctx, { id: window.id, actor });
    await createMaintenanceWindow(server.ctx, {
      window: { startsAt: at(-20 * MINUTE), endsAt: at(-MINUTE), message: 'Passée', scope: 'all' },
      actor,
      now: new Date(Date.now() - 30 * MINUTE),
    });
    // The bot drops now, after the window: told once it has been offline long enough, not 15 min
    // after the window's end.
    const owner = await offlineOwner({ reconnect: false });
    await evaluateAlerts(server.ctx, new Date(Date.now() + 6 * MINUTE));
    expect(await titles(owner)).toEqual(['Votre bot est hors ligne']);
  });
});

describe('overlapping windows', () => {
  it('show the message of the one that started first, the one scheduled first when they start together', async () => {
    const startsAt = at(-MINUTE);
    const first = await schedule({
      startsAt,
      endsAt: at(20 * MINUTE),
      message: 'Première fenêtre',
      scope: 'all',
    });
    const second = await schedule({
      startsAt,
      endsAt: at(40 * MINUTE),
      message: 'Seconde fenêtre',
      scope: 'all',
    });
    for (let read = 0; read < 5; read++) {
      server.ctx.maintenanceCache.forget();
      const banner = await call<PublicSettings>('GET', '/settings/public');
      expect(banner.body.maintenanceWindow?.message).toBe('Première fenêtre');
    }
    for (const window of [first, second])
      await call('POST', `/admin/maintenance-windows/${window.body.data.id}/cancel`, {}, staff.token);
    server.ctx.maintenanceCache.forget();
    expect((await call<PublicSettings>('GET', '/settings/public')).body.maintenanceWindow).toBeNull();
  });
});
