import { permissionLabel } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { connectAndAuthenticate, type TestSocket } from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { users } from '../users/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_manageUsers'] });
  outsider = await server.createUser({ permissions: ['can_manageRoles'] });
});
const sockets: TestSocket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

describe('guards', () => {
  const someId = newId();
  const endpoints: [string, string, unknown?][] = [
    ['GET', '/admin/users'],
    ['GET', '/admin/users/export.csv'],
    ['GET', '/admin/users/role-options'],
    ['GET', `/admin/users/${someId}`],
    ['POST', `/admin/users/${someId}/activate`],
    ['POST', `/admin/users/${someId}/resend-activation`],
    ['POST', `/admin/users/${someId}/ban`, { reason: 'triche' }],
    ['POST', `/admin/users/${someId}/unban`],
    ['PUT', `/admin/users/${someId}/roles`, { roleIds: [] }],
    ['PUT', `/admin/users/${someId}/discord`, { discordId: null }],
    ['DELETE', `/admin/users/${someId}/hwid`],
    ['POST', `/admin/users/${someId}/grants`, { permission: 'can_useGathering', expiresAt: null }],
    ['PATCH', `/admin/users/${someId}/grants/${someId}`, { expiresAt: null }],
    ['DELETE', `/admin/users/${someId}/grants/${someId}`],
    ['GET', `/admin/users/${someId}/sessions`],
    ['DELETE', `/admin/users/${someId}/sessions`],
    ['DELETE', `/admin/users/${someId}/sessions/${someId}`],
    ['GET', `/admin/users/${someId}/audit`],
    ['GET', `/admin/users/${someId}/whitelist`],
    ['GET', `/admin/users/${someId}/bot`],
    ['GET', `/admin/users/${someId}/orders`],
  ];
  it.each(endpoints)(
    '%s %s: 401 without a session, 403 without can_manageUsers',
    async (method, path, body) => {
      expect((await call(method, path, body)).status).toBe(401);
      const forbidden = await call(method, path, body, outsider.token);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toMatchObject({ code: 'FORBIDDEN' });
      // with the permission the guard lets it through (404 for the unknown user, or the list)
      const allowed = await call(method, path, body, staff.token);
      expect([200, 404]).toContain(allowed.status);
    },
  );
});

describe('list', () => {
  it('pages, searches, filters and sorts, with roles, subscriptions and bot presence', async () => {
    const pending = await server.createUser({ username: 'zz_pending_one', activated: false });
    const subscriber = await server.createUser({
      username: 'zz_subscriber',
      permissions: ['can_useGathering'],
    });
    // Its bot runs for real: a bot session binds the PC, a bot socket makes it online.
    const key = await call<{ data: { accessKey: string } }>(
      'GET',
      '/me/bot-key',
      undefined,
      subscriber.token,
    );
    const botSession = await call<{ token: string }>('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid: 'HWID-SUBSCRIBER-1',
      version: '1.0.0',
    });
    expect(botSession.status).toBe(201);
    const bot = await connectAndAuthenticate(server, {
      type: 'bot',
      token: botSession.body.token,
      hwid: 'HWID-SUBSCRIBER-1',
    });
    sockets.push(bot.socket);
    expect(bot.ack).toEqual({ ok: true });

    const found = await call<{ data: Record<string, unknown>[]; total: number }>(
      'GET',
      '/admin/users?q=zz_&sort=username&pageSize=1',
      undefined,
      staff.token,
    );
    expect(found.status).toBe(200);
    expect(found.body.total).toBe(2);
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0]).toMatchObject({ username: 'zz_pending_one', activated: false });

    const second = await call<{ data: Record<string, unknown>[] }>(
      'GET',
      '/admin/users?q=zz_&sort=username&pageSize=1&page=2',
      undefined,
      staff.token,
    );
    expect(second.body.data[0]).toMatchObject({
      username: 'zz_subscriber',
      hwid: 'HWID-SUBSCRIBER-1',
      isBotOnline: true,
      subscriptions: [{ permission: 'can_useGathering', expiresAt: null }],
    });

    const pendingOnly = await call<{ data: { id: string }[] }>(
      'GET',
      '/admin/users?status=pending',
      undefined,
      staff.token,
    );
    expect(pendingOnly.body.data.map((u) => u.id)).toEqual([pending.user.id]);

    const bySort = await call('GET', '/admin/users?sort=passwordHash', undefined, staff.token);
    expect(bySort.status).toBe(400);
    const byPermission = await call<{ data: { id: string }[] }>(
      'GET',
      '/admin/users?permission=can_useGathering',
      undefined,
      staff.token,
    );
    expect(byPermission.status, JSON.stringify(byPermission.body)).toBe(200);
    expect(byPermission.body.data.map((u) => u.id)).toEqual([subscriber.user.id]);
  });
});

describe('user page extras', () => {
  it("answers the user's bot, orders and whitelist", async () => {
    const target = await server.createUser();
    await server.ctx.db.update(users).set({ hwid: 'HWID-EXTRAS-0001' }).where(eq(users.id, target.user.id));
    const bot = await call<{ data: { hwid: string; state: unknown; history: unknown[] } }>(
      'GET',
      `/admin/users/${target.user.id}/bot`,
      undefined,
      staff.token,
    );
    expect(bot.status).toBe(200);
    expect(bot.body.data).toEqual({ hwid: 'HWID-EXTRAS-0001', state: null, history: [] });
    const orders = await call('GET', `/admin/users/${target.user.id}/orders`, undefined, staff.token);
    expect(orders.status).toBe(200);
    expect(orders.body).toEqual({ data: [], total: 0 });
    const whitelist = await call('GET', `/admin/users/${target.user.id}/whitelist`, undefined, staff.token);
    expect(whitelist.body).toEqual({ data: [], total: 0 });
    const detail = await call<{ data: { username: string; permissions: string[] } }>(
      'GET',
      `/admin/users/${target.user.id}`,
      undefined,
      staff.token,
    );
    expect(detail.body.data).toMatchObject({ username: target.user.username, permissions: [] });
  });
});

describe('CSV export', () => {
  it('streams every matching row of a large list (3,000 users) with the same filters', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: newId(),
      username: `bulk_${String(i).padStart(4, '0')}`,
      email: `bulk_${i}@example.test`,
      passwordHash: 'x',
      activatedAt: new Date(),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await server.ctx.db.insert(users).values(rows.slice(i, i + 500));
    const response = await fetch(`${server.api}/admin/users/export.csv?q=bulk_`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toContain('utilisateurs.csv');
    const lines = (await response.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(3001);
    expect(lines[0]).toContain("nom d'utilisateur");
    const names = new Set(lines.slice(1).map((line) => line.split(';')[1]));
    expect(names.size).toBe(3000);
    expect(names.has('bulk_2999')).toBe(true);

    const page = await call<{ total: number }>(
      'GET',
      '/admin/users?q=bulk_&pageSize=10',
      undefined,
      staff.token,
    );

    // a cell a spreadsheet would run as a formula is exported as text
    const sly = await server.createUser({ username: 'formula_user' });
    await server.ctx.db
      .update(users)
      .set({ discordId: '=HYPERLINK("http://evil.test","x")' })
      .where(eq(users.id, sly.user.id));
    const exported = await (
      await fetch(`${server.api}/admin/users/export.csv?q=formula_user`, {
        headers: { authorization: `Bearer ${staff.token}` },
      })
    ).text();
    expect(exported).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(page.body.total).toBe(3000);
  });
});

describe('export', () => {
  it('lists subscriptions by their labels, not their can_ names, with their end in the viewer’s zone', async () => {
    const subscriber = await server.createUser({ username: 'csv_labels', permissions: ['can_useGathering'] });
    const ends = new Date('2031-03-04T12:00:00.000Z');
    await call(
      'POST',
      `/admin/users/${subscriber.user.id}/grants`,
      { permission: 'can_useTreasure', expiresAt: ends.toISOString() },
      staff.token,
    );
    const text = await (
      await fetch(`${server.api}/admin/users/export.csv?q=csv_labels&tz=Europe/Paris`, {
        headers: { authorization: `Bearer ${staff.token}` },
      })
    ).text();
    const [header, line] = text
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r?\n/);
    const column = header?.split(';').indexOf('abonnements') ?? -1;
    const cell = line?.split(';')[column]?.replace(/^"|"$/g, '');
    expect(cell).toBe(
      `${permissionLabel('can_useGathering')} (sans fin), ${permissionLabel('can_useTreasure')} (jusqu’au 2031-03-04 13:00:00)`,
    );
  });
});
