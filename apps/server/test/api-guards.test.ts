import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './harness.ts';

/** Security issue: bad input answers 400/405 with `{error, code}`, never a 500 or a silent pass. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('API input guards', () => {
  it('refuses a NUL character in any string, anonymous or not, with a French 400', async () => {
    const call = apiClient(server);
    const admin = await server.createUser({ isAdministrator: true });
    const attempts = [
      call('POST', '/auth/login', { username: 'a\u0000b', password: 'x' }),
      call('POST', '/auth/register', {
        username: 'nul\u0000nul',
        password: 'Velours-Horloge-Cactus-93',
        email: 'n@example.test',
      }),
      call('POST', '/auth/resend-confirmation', { username: '\u0000' }),
      call('POST', '/auth/activate', { username: 'x', token: 'a\u0000' }),
      call('POST', '/auth/forgot-password', { email: 'a\u0000@example.test' }),
      call('GET', `/admin/users?q=${encodeURIComponent('bob\u0000')}`, undefined, admin.token),
      call('POST', '/admin/roles', { name: 'rôle\u0000', permissions: [] }, admin.token),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer).toMatchObject({
        status: 400,
        body: { code: 'NUL_CHARACTER', error: 'Le caractère nul (U+0000) n’est pas accepté.' },
      });
    }
  });

  it('refuses integers beyond the PostgreSQL integer range with a 400 (was a 500)', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const step = (mapId: number) => ({
      name: 'Trop loin',
      kind: 'gathering',
      steps: [{ mapId, action: 'gather' }],
    });
    const call = apiClient(server);
    for (const mapId of [2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER]) {
      expect(await call('POST', '/admin/routes', step(mapId), admin.token)).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR' },
      });
    }
    expect((await call('GET', '/admin/users?page=1e12', undefined, admin.token)).status).toBe(400);
  });

  it('refuses an unknown query parameter, naming it', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const answer = await apiClient(server)(
      'GET',
      '/admin/users?page=1&stauts=banned',
      undefined,
      admin.token,
    );
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'UNKNOWN_QUERY_PARAMETER', details: { names: ['stauts'] } },
    });
    expect((answer.body as { error: string }).error).toContain('stauts');
    // Declared ones pass.
    expect((await apiClient(server)('GET', '/admin/users?page=1&q=bob', undefined, admin.token)).status).toBe(
      200,
    );
    expect((await apiClient(server)('GET', '/settings/public?x=1')).status).toBe(400);
  });

  it('answers a wrong method 405 with Allow, an unknown path 404', async () => {
    const call = apiClient(server);
    const wrong = await call('DELETE', '/auth/login');
    expect(wrong).toMatchObject({ status: 405, body: { code: 'METHOD_NOT_ALLOWED' } });
    expect(wrong.headers.get('allow')).toBe('POST');
    const resource = await call('PATCH', '/admin/users/0190f5a0-0000-7000-8000-000000000000');
    expect(resource.status).toBe(405);
    expect(resource.headers.get('allow')?.split(', ')).toContain('GET');
    expect(await call('GET', '/nulle-part')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('marks signed-in answers no-store', async () => {
    const user = await server.createUser();
    const call = apiClient(server);
    expect((await call('GET', '/me/info', undefined, user.token)).headers.get('cache-control')).toBe(
      'no-store',
    );
    expect((await call('GET', '/packages', undefined, user.token)).headers.get('cache-control')).toBe(
      'no-store',
    );
  });
});
