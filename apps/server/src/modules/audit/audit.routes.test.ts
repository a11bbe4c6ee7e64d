import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  apiClient,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
  type TestUser,
} from '../../../test/harness.ts';
import { inTransaction } from '../../context.ts';
import { writeAudit } from './audit.service.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let auditor: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  auditor = await server.createUser({ username: 'auditrice', permissions: ['can_manageAudit'] });
  outsider = await server.createUser({ permissions: ['can_manageUsers'] });
});
afterAll(() => server.close());

type Page = {
  data: { action: string; actorUsername: string | null; before: unknown; after: unknown }[];
  total: number;
};

it.each([['/admin/audit'], ['/admin/audit/actions'], ['/admin/audit/export.csv']])(
  'GET %s: 401 without a session, 403 without can_manageAudit',
  async (path) => {
    expect((await call('GET', path)).status).toBe(401);
    expect((await call('GET', path, undefined, outsider.token)).status).toBe(403);
    expect((await call('GET', path, undefined, auditor.token)).status).toBe(200);
  },
);

it('records security events and staff actions, filtered by actor, action, target and period', async () => {
  const victim = await server.createUser({ username: 'cible_audit' });
  await call('POST', '/auth/login', { username: 'cible_audit', password: 'mauvais-mot-de-passe' });
  await call('POST', '/auth/login', { username: 'cible_audit', password: TEST_PASSWORD });
  await call('POST', `/admin/users/${victim.user.id}/ban`, { reason: 'Comportement abusif' }, outsider.token);

  const failed = await call<Page>('GET', '/admin/audit?action=auth.login_failed', undefined, auditor.token);
  expect(failed.body.total).toBe(1);
  const auth = await call<Page>(
    'GET',
    '/admin/audit?action=auth.&target=cible_audit',
    undefined,
    auditor.token,
  );
  expect(auth.body.data.map((e) => e.action).sort()).toEqual(['auth.login', 'auth.login_failed']);

  const byActor = await call<Page>(
    'GET',
    `/admin/audit?actor=${outsider.user.username}`,
    undefined,
    auditor.token,
  );
  expect(byActor.body.data).toHaveLength(1);
  expect(byActor.body.data[0]).toMatchObject({
    action: 'user.ban',
    before: { banned: false },
    after: { banned: true, reason: 'Comportement abusif' },
  });
  const byActorId = await call<Page>(
    'GET',
    `/admin/audit?actor=${outsider.user.id}`,
    undefined,
    auditor.token,
  );
  expect(byActorId.body.total).toBe(1);

  const future = new Date(Date.now() + 60_000).toISOString();
  const none = await call<Page>(
    'GET',
    `/admin/audit?from=${encodeURIComponent(future)}`,
    undefined,
    auditor.token,
  );
  expect(none.body.total).toBe(0);
  const past = new Date(Date.now() - 60_000).toISOString();
  const recent = await call<Page>(
    'GET',
    `/admin/audit?from=${encodeURIComponent(past)}&to=${encodeURIComponent(future)}&pageSize=2`,
    undefined,
    auditor.token,
  );
  expect(recent.body.total).toBeGreaterThanOrEqual(3);
  expect(recent.body.data).toHaveLength(2);
  expect((await call('GET', '/admin/audit?from=hier', undefined, auditor.token)).status).toBe(400);

  const actions = await call<{ data: string[] }>('GET', '/admin/audit/actions', undefined, auditor.token);
  expect(actions.body.data).toEqual(expect.arrayContaining(['auth.login', 'auth.login_failed', 'user.ban']));
});

it('exports the filtered trail as CSV, every row, with before/after as JSON', async () => {
  const actor = { id: null, username: 'robot', ip: '10.0.0.1' };
  await inTransaction(server.ctx, async (tx) => {
    for (let i = 0; i < 2500; i += 1) {
      await writeAudit(tx, {
        actor,
        action: 'test.bulk',
        target: { type: 'thing', id: String(i), label: `chose ${i}` },
        before: { n: i },
        after: { n: i + 1 },
      });
    }
  });
  const response = await fetch(`${server.api}/admin/audit/export.csv?action=test.bulk`, {
    headers: { authorization: `Bearer ${auditor.token}` },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const lines = text.trim().split(/\r?\n/);
  expect(lines).toHaveLength(2501);
  expect(text).toContain('"{""n"":2499}";"{""n"":2500}"');
});
