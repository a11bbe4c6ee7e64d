import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
  type TestUser,
} from '../../../test/harness.ts';
import { auditLog } from '../audit/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let manager: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  manager = await server.createUser({ permissions: ['can_manageSettings'] });
  outsider = await server.createUser({ permissions: ['can_useGathering'] });
});
afterAll(() => server.close());

describe('admin settings', () => {
  it.each([
    ['GET', '/admin/settings'],
    ['PUT', '/admin/settings', { isSnow: true }],
    ['GET', '/admin/settings/history'],
  ] as [string, string, unknown?][])(
    '%s %s: 401, 403 without can_manageSettings',
    async (method, path, body) => {
      expect((await call(method, path, body)).status).toBe(401);
      expect((await call(method, path, body, outsider.token)).status).toBe(403);
    },
  );

  it('validates, saves, tells listeners, writes history with before/after', async () => {
    const read = await call<{ data: Record<string, unknown> }>(
      'GET',
      '/admin/settings',
      undefined,
      manager.token,
    );
    expect(read.body.data).toMatchObject({ isSnow: false, minBotVersion: '0.0.0' });
    expect((await call('PUT', '/admin/settings', { minBotVersion: 'v2' }, manager.token)).status).toBe(400);
    expect(
      (await call('PUT', '/admin/settings', { botOfflineTimeoutSeconds: 1 }, manager.token)).status,
    ).toBe(400);
    expect((await call('PUT', '/admin/settings', { colour: 'red' }, manager.token)).status).toBe(400);

    const changedKeys: string[][] = [];
    const stop = server.ctx.events.on('settings.changed', ({ keys }) => changedKeys.push(keys));
    const saved = await call<{ data: Record<string, unknown> }>(
      'PUT',
      '/admin/settings',
      {
        isSnow: true,
        minBotVersion: '1.2.0',
        announcement: 'Nouvelle version disponible',
        registrationOpen: true,
      },
      manager.token,
    );
    stop();
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ isSnow: true, minBotVersion: '1.2.0' });
    // registrationOpen did not change: not written, not in the history
    expect(changedKeys).toEqual([['isSnow', 'minBotVersion', 'announcement']]);
    expect((await call('GET', '/settings/public')).body).toMatchObject({
      isSnow: true,
      announcement: 'Nouvelle version disponible',
    });
    const [entry] = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settings.update'), eq(auditLog.actorId, manager.user.id)));
    expect(entry).toMatchObject({
      before: { isSnow: false, minBotVersion: '0.0.0', announcement: '' },
      after: { isSnow: true, minBotVersion: '1.2.0', announcement: 'Nouvelle version disponible' },
    });
    const history = await call<{ data: { after: unknown }[]; total: number }>(
      'GET',
      '/admin/settings/history',
      undefined,
      manager.token,
    );
    expect(history.body.total).toBe(1);
  });
});

describe('maintenance mode', () => {
  it('answers 503 with the message to non-staff, keeps staff, sign-in and public settings working', async () => {
    const customer = await server.createUser();
    const mapper = await server.createUser({ permissions: ['can_manageMap'] });
    await call(
      'PUT',
      '/admin/settings',
      { maintenanceMode: true, maintenanceMessage: 'Mise à jour en cours, retour vers 14 h.' },
      manager.token,
    );
    const blocked = await call('GET', '/admin/settings', undefined, customer.token);
    expect(blocked.status).toBe(503);
    expect(blocked.body).toEqual({
      error: 'Mise à jour en cours, retour vers 14 h.',
      code: 'MAINTENANCE',
      details: { notice: 'Mise à jour en cours, retour vers 14 h.' },
    });
    const anonymous = await call('POST', '/auth/register', {
      username: 'pendant_maintenance',
      password: TEST_PASSWORD,
      email: 'pm@example.test',
    });
    expect(anonymous.status).toBe(503);

    // the web app can still tell who is signed in and show the page
    expect((await call('GET', '/settings/public')).body).toMatchObject({ maintenanceMode: true });
    expect((await call('GET', '/me/info', undefined, customer.token)).status).toBe(200);
    expect((await call('GET', '/me/permissions', undefined, customer.token)).status).toBe(200);
    expect((await call('GET', '/healthz')).status).toBe(200);
    // but a customer cannot buy or change anything meanwhile
    expect((await call('GET', '/me/orders', undefined, customer.token)).status).toBe(503);
    expect((await call('POST', '/me/bot-key', undefined, customer.token)).status).toBe(503);
    const login = await call('POST', '/auth/login', {
      username: customer.user.username,
      password: TEST_PASSWORD,
    });
    expect(login.status).toBe(200);

    // staff: any can_manage* permission or administrators
    expect((await call('GET', '/admin/settings', undefined, manager.token)).status).toBe(200);
    expect((await call('GET', '/admin/users', undefined, mapper.token)).status).toBe(403);

    await call('PUT', '/admin/settings', { maintenanceMode: false }, manager.token);
    expect((await call('GET', '/admin/settings', undefined, customer.token)).status).toBe(403);
  });
});
