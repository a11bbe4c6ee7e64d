import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { auditLog } from '../audit/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let outsider: TestUser;

type Pkg = {
  id: string;
  name: string;
  sortOrder: number;
  active: boolean;
  retiredAt: string | null;
  priceCents: number;
};

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_managePackages'] });
  outsider = await server.createUser({ permissions: ['can_manageVoucher'] });
});
afterAll(() => server.close());

const auditOf = (action: string, targetId: string) =>
  server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Récolte 30 jours',
  description: 'Le bot de récolte pendant un mois.',
  priceCents: 999,
  durationDays: 30,
  grants: ['can_useGathering'],
  whitelistSlots: 2,
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}): Promise<Pkg> {
  const answer = await call<{ data: Pkg }>('POST', '/admin/packages', body(overrides), staff.token);
  expect(answer.status).toBe(201);
  return answer.body.data;
}

describe('guards', () => {
  const someId = newId();
  it.each([
    ['GET', '/admin/packages'],
    ['GET', `/admin/packages/${someId}`],
    ['POST', '/admin/packages', body()],
    ['PATCH', `/admin/packages/${someId}`, { name: 'Autre nom' }],
    ['DELETE', `/admin/packages/${someId}`],
    ['POST', '/admin/packages/reorder', { ids: [someId] }],
  ] as [string, string, unknown?][])(
    '%s %s: 401, 403 without can_managePackages',
    async (method, path, payload) => {
      expect((await call(method, path, payload)).status).toBe(401);
      expect((await call(method, path, payload, outsider.token)).status).toBe(403);
      expect([200, 201, 400, 404]).toContain((await call(method, path, payload, staff.token)).status);
    },
  );

  it('GET /packages is public', async () => {
    expect((await call('GET', '/packages')).status).toBe(200);
  });
});

describe('packages', () => {
  it('creates a package (audited), shows it on sale, edits it (audited)', async () => {
    const pkg = await create();
    expect(pkg).toMatchObject({ name: 'Récolte 30 jours', priceCents: 999, active: true, retiredAt: null });
    expect(await auditOf('package.create', pkg.id)).toHaveLength(1);
    const onSale = await call<{ data: Pkg[] }>('GET', '/packages');
    expect(onSale.body.data.map((p) => p.id)).toContain(pkg.id);

    const edited = await call<{ data: Pkg }>(
      'PATCH',
      `/admin/packages/${pkg.id}`,
      { priceCents: 1499 },
      staff.token,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data.priceCents).toBe(1499);
    const [entry] = await auditOf('package.update', pkg.id);
    expect(entry).toMatchObject({ actorId: staff.user.id });
    expect((entry?.before as Pkg | undefined)?.priceCents).toBe(999);
    expect((entry?.after as Pkg | undefined)?.priceCents).toBe(1499);
  });

  it('refuses invalid input with 400 and unknown fields', async () => {
    expect((await call('POST', '/admin/packages', body({ priceCents: -1 }), staff.token)).status).toBe(400);
    expect(
      (await call('POST', '/admin/packages', body({ grants: ['can_manageUsers'] }), staff.token)).status,
    ).toBe(400);
    expect(
      (
        await call(
          'POST',
          '/admin/packages',
          body({ grants: ['can_useTreasure', 'can_useTreasure'] }),
          staff.token,
        )
      ).status,
    ).toBe(400);
    expect((await call('POST', '/admin/packages', body({ surprise: 1 }), staff.token)).status).toBe(400);
    expect(
      await call('PATCH', `/admin/packages/${newId()}`, { name: 'Personne' }, staff.token),
    ).toMatchObject({
      status: 404,
      body: { code: 'PACKAGE_NOT_FOUND', error: 'Offre introuvable.' },
    });
  });

  it('deactivates, retires (DELETE) and brings back a package; only active ones are on sale', async () => {
    const pkg = await create({ name: 'Trésor 7 jours', grants: ['can_useTreasure'] });
    const off = await call<{ data: Pkg }>(
      'PATCH',
      `/admin/packages/${pkg.id}`,
      { active: false },
      staff.token,
    );
    expect(off.body.data.active).toBe(false);
    let onSale = await call<{ data: Pkg[] }>('GET', '/packages');
    expect(onSale.body.data.map((p) => p.id)).not.toContain(pkg.id);

    expect((await call('DELETE', `/admin/packages/${pkg.id}`, undefined, staff.token)).status).toBe(204);
    expect(await auditOf('package.retire', pkg.id)).toHaveLength(1);
    const retired = await call<{ data: Pkg }>('GET', `/admin/packages/${pkg.id}`, undefined, staff.token);
    expect(retired.body.data.retiredAt).not.toBeNull();
    expect(await call('PATCH', `/admin/packages/${pkg.id}`, { active: true }, staff.token)).toMatchObject({
      status: 409,
      body: { code: 'PACKAGE_RETIRED' },
    });
    const listed = await call<{ data: Pkg[]; total: number }>(
      'GET',
      '/admin/packages?status=retired',
      undefined,
      staff.token,
    );
    expect(listed.body.data.map((p) => p.id)).toContain(pkg.id);

    const back = await call<{ data: Pkg }>(
      'PATCH',
      `/admin/packages/${pkg.id}`,
      { retired: false, active: true },
      staff.token,
    );
    expect(back.body.data).toMatchObject({ active: true, retiredAt: null });
    onSale = await call<{ data: Pkg[] }>('GET', '/packages');
    expect(onSale.body.data.map((p) => p.id)).toContain(pkg.id);
  });

  it('reorders packages (audited); the marketplace follows the order', async () => {
    const a = await create({ name: 'Ordre A' });
    const b = await create({ name: 'Ordre B' });
    const c = await create({ name: 'Ordre C' });
    const answer = await call<{ data: Pkg[] }>(
      'POST',
      '/admin/packages/reorder',
      { ids: [c.id, a.id, b.id] },
      staff.token,
    );
    expect(answer.status).toBe(200);
    const onSale = (await call<{ data: Pkg[] }>('GET', '/packages')).body.data.map((p) => p.id);
    expect(onSale.indexOf(c.id)).toBe(0);
    expect(onSale.indexOf(a.id)).toBe(1);
    expect(onSale.indexOf(b.id)).toBe(2);
    expect(await auditOf('package.reorder', c.id)).toHaveLength(1);
    expect((await call('POST', '/admin/packages/reorder', { ids: [a.id, a.id] }, staff.token)).status).toBe(
      400,
    );
    expect((await call('POST', '/admin/packages/reorder', { ids: [newId()] }, staff.token)).status).toBe(400);
  });

  it('lists with pagination, search and sort', async () => {
    const page = await call<{ data: Pkg[]; total: number }>(
      'GET',
      '/admin/packages?q=ordre&pageSize=2&sort=-name',
      undefined,
      staff.token,
    );
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.data.map((p) => p.name)).toEqual(['Ordre C', 'Ordre B']);
    expect((await call('GET', '/admin/packages?sort=hack', undefined, staff.token)).status).toBe(400);
  });
});
