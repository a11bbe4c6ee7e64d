import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from './harness.ts';

/**
 * Every admin list, short ones included, speaks the shared list contract (docs/decisions/403):
 * `?page=&pageSize=&sort=&q=` answered with `{data, total}`. The lists are found in the OpenAPI
 * document (every `GET /admin/…` whose answer holds `data` and `total`), so a new list is covered
 * without anyone adding it here.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let admin: TestUser;
let voucherId: string;

type Schema = { properties?: Record<string, Schema>; type?: string; $ref?: string };
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };

async function adminListPaths(): Promise<string[]> {
  const document = (await server.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, { get?: Operation }>;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) => {
    const answer = operations.get?.responses?.['200']?.content?.['application/json']?.schema;
    const isList = answer?.properties?.data?.type === 'array' && answer.properties.total !== undefined;
    return path.startsWith('/api/admin/') && isList ? [path] : [];
  });
}

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  admin = await server.createUser({ isAdministrator: true });
  // Something in the lists: more permission holders, a role, another user.
  await server.createUser({ permissions: ['can_manageMap', 'can_manageAudit'] });
  const voucher = await call<{ data: { id: string } }>(
    'POST',
    '/admin/vouchers',
    { kind: 'percent', percentOff: 10 },
    admin.token,
  );
  voucherId = voucher.body.data.id;
});
afterAll(() => server.close());

describe('the shared admin list contract', () => {
  it('holds for every admin list: page, pageSize and q accepted, {data, total} answered', async () => {
    const paths = await adminListPaths();
    // The lists the back office is made of (the document is the inventory; these must be in it).
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/admin/users',
        '/api/admin/permissions',
        '/api/admin/roles',
        '/api/admin/audit',
        '/api/admin/payments',
        '/api/admin/vouchers',
        '/api/admin/whitelist',
        '/api/admin/packages',
        '/api/admin/releases',
        '/api/admin/routes',
        '/api/admin/users-online/bots',
        '/api/admin/users-online/sessions',
        '/api/admin/settings/history',
        '/api/admin/vouchers/{id}/redemptions',
        '/api/admin/users/{id}/orders',
        '/api/admin/users/{id}/whitelist',
        '/api/admin/users/{id}/pcs',
      ]),
    );
    const failures: string[] = [];
    for (const path of paths) {
      const id = path.startsWith('/api/admin/vouchers/') ? voucherId : admin.user.id;
      const concrete = path.replace('/api', '').replaceAll('{id}', id);
      for (const query of ['page=1&pageSize=5', 'page=1&pageSize=5&q=a', 'page=2&pageSize=1']) {
        const answer = await call<{ data: unknown[]; total: number }>(
          'GET',
          `${concrete}?${query}`,
          undefined,
          admin.token,
        );
        const body = answer.body;
        const pageSize = Number(new URLSearchParams(query).get('pageSize'));
        if (answer.status !== 200)
          failures.push(`${concrete}?${query}: ${answer.status} ${JSON.stringify(body)}`);
        else if (!Array.isArray(body.data) || typeof body.total !== 'number' || body.data.length > pageSize)
          failures.push(`${concrete}?${query}: ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses an unknown sort key with a French 400 on every list', async () => {
    const failures: string[] = [];
    for (const path of await adminListPaths()) {
      const id = path.startsWith('/api/admin/vouchers/') ? voucherId : admin.user.id;
      const concrete = path.replace('/api', '').replaceAll('{id}', id);
      const answer = await call<{ code: string; error: string }>(
        'GET',
        `${concrete}?sort=zzz`,
        undefined,
        admin.token,
      );
      if (answer.status !== 400 || answer.body.code !== 'SORT_UNKNOWN' || !answer.body.error.includes('zzz'))
        failures.push(`${concrete}?sort=zzz: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });

  it('pages a short list too: the 13 permissions, five at a time', async () => {
    const first = await call<{ data: { name: string }[]; total: number }>(
      'GET',
      '/admin/permissions?page=1&pageSize=5&sort=name',
      undefined,
      admin.token,
    );
    const third = await call<{ data: { name: string }[]; total: number }>(
      'GET',
      '/admin/permissions?page=3&pageSize=5&sort=name',
      undefined,
      admin.token,
    );
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(13);
    expect(first.body.data).toHaveLength(5);
    expect(third.body.data).toHaveLength(3);
    const filtered = await call<{ data: { name: string }[]; total: number }>(
      'GET',
      '/admin/permissions?q=manageUsers',
      undefined,
      admin.token,
    );
    expect(filtered.body.data.map((permission) => permission.name)).toEqual([
      'can_manageUsers',
      'can_manageUsersOnline',
    ]);
    expect(filtered.body.total).toBe(2);
  });
});
