import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { auditLog } from '../audit/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let outsider: TestUser;
let packageId: string;

type Voucher = {
  id: string;
  code: string;
  kind: string;
  percentOff: number | null;
  redemptionsCount: number;
  active: boolean;
  packageName: string | null;
};

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_manageVoucher', 'can_managePackages'] });
  outsider = await server.createUser({ permissions: ['can_managePackages'] });
  const created = await call<{ data: { id: string } }>(
    'POST',
    '/admin/packages',
    { name: 'Récolte', priceCents: 1000, durationDays: 30, grants: ['can_useGathering'], whitelistSlots: 1 },
    staff.token,
  );
  packageId = created.body.data.id;
});
afterAll(() => server.close());

const auditOf = (action: string, targetId: string) =>
  server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

async function create(body: Record<string, unknown>) {
  const answer = await call<{ data: Voucher }>('POST', '/admin/vouchers', body, staff.token);
  expect(answer.status).toBe(201);
  return answer.body.data;
}

describe('guards', () => {
  const someId = newId();
  it.each([
    ['GET', '/admin/vouchers'],
    ['GET', `/admin/vouchers/${someId}`],
    ['GET', `/admin/vouchers/${someId}/redemptions`],
    ['POST', '/admin/vouchers', { kind: 'percent', percentOff: 10 }],
    ['PATCH', `/admin/vouchers/${someId}`, { active: false }],
    ['DELETE', `/admin/vouchers/${someId}`],
  ] as [string, string, unknown?][])(
    '%s %s: 401, 403 without can_manageVoucher',
    async (method, path, payload) => {
      expect((await call(method, path, payload)).status).toBe(401);
      expect((await call(method, path, payload, outsider.token)).status).toBe(403);
      expect([200, 201, 404]).toContain((await call(method, path, payload, staff.token)).status);
    },
  );
});

describe('vouchers', () => {
  it('generates codes of 16 base32 symbols (80 bits), all different', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 5; i += 1) {
      const voucher = await create({ kind: 'percent', percentOff: 10 });
      expect(voucher.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
      codes.add(voucher.code);
    }
    expect(codes.size).toBe(5);
  });

  it('takes a typed code (upper-cased), refuses a duplicate in any case', async () => {
    const voucher = await create({ kind: 'fixed', amountOffCents: 300, code: 'bienvenue-2026' });
    expect(voucher.code).toBe('BIENVENUE-2026');
    expect(await auditOf('voucher.create', voucher.id)).toHaveLength(1);
    const duplicate = await call(
      'POST',
      '/admin/vouchers',
      { kind: 'percent', percentOff: 5, code: 'Bienvenue-2026' },
      staff.token,
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'VOUCHER_CODE_TAKEN' });
  });

  it('validates kinds and dates', async () => {
    const bad = [
      { kind: 'percent' },
      { kind: 'percent', percentOff: 101 },
      { kind: 'fixed' },
      { kind: 'gift' },
      { kind: 'gift', packageId: 'x' },
      { kind: 'percent', percentOff: 5, startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' },
      { kind: 'percent', percentOff: 5, code: 'a b' },
      { kind: 'percent', percentOff: 5, extra: true },
    ];
    for (const body of bad)
      expect((await call('POST', '/admin/vouchers', body, staff.token)).status).toBe(400);
    const unknownPackage = await call(
      'POST',
      '/admin/vouchers',
      { kind: 'gift', packageId: newId() },
      staff.token,
    );
    expect(unknownPackage).toMatchObject({ status: 400, body: { code: 'VOUCHER_PACKAGE_UNKNOWN' } });
    const gift = await create({ kind: 'gift', packageId, maxRedemptions: 5, perCustomerLimit: 1 });
    expect(gift.packageName).toBe('Récolte');
  });

  it('edits (audited), deactivates, lists with filters, deletes only unused vouchers', async () => {
    const voucher = await create({ kind: 'percent', percentOff: 20, note: 'Salon' });
    const edited = await call<{ data: Voucher }>(
      'PATCH',
      `/admin/vouchers/${voucher.id}`,
      { percentOff: 30, active: false },
      staff.token,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ percentOff: 30, active: false });
    const [entry] = await auditOf('voucher.update', voucher.id);
    expect(entry).toMatchObject({ actorId: staff.user.id });
    expect(
      (await call('PATCH', `/admin/vouchers/${voucher.id}`, { percentOff: null }, staff.token)).status,
    ).toBe(400);

    const inactive = await call<{ data: Voucher[]; total: number }>(
      'GET',
      `/admin/vouchers?active=false&kind=percent&q=${voucher.code.slice(0, 6)}`,
      undefined,
      staff.token,
    );
    expect(inactive.body.data.map((v) => v.id)).toContain(voucher.id);

    const used = await create({ kind: 'fixed', amountOffCents: 100 });
    const customer = await server.createUser();
    const order = await call('POST', '/me/orders', { packageId, voucherCode: used.code }, customer.token);
    expect(order.status).toBe(201);
    expect(await call('DELETE', `/admin/vouchers/${used.id}`, undefined, staff.token)).toMatchObject({
      status: 409,
      body: { code: 'VOUCHER_USED' },
    });
    expect((await call('DELETE', `/admin/vouchers/${voucher.id}`, undefined, staff.token)).status).toBe(204);
    expect(await auditOf('voucher.delete', voucher.id)).toHaveLength(1);
    expect(await call('GET', `/admin/vouchers/${voucher.id}`, undefined, staff.token)).toMatchObject({
      status: 404,
      body: { code: 'VOUCHER_NOT_FOUND' },
    });
  });

  it('counts redemptions and lists who used a voucher', async () => {
    const voucher = await create({ kind: 'gift', packageId });
    const customers = [await server.createUser(), await server.createUser()];
    for (const customer of customers) {
      const answer = await call(
        'POST',
        '/me/orders',
        { packageId, voucherCode: voucher.code },
        customer.token,
      );
      expect(answer.status).toBe(201);
    }
    const shown = await call<{ data: Voucher }>(
      'GET',
      `/admin/vouchers/${voucher.id}`,
      undefined,
      staff.token,
    );
    expect(shown.body.data.redemptionsCount).toBe(2);
    const redemptions = await call<{
      data: { user: { username: string }; orderStatus: string }[];
      total: number;
    }>('GET', `/admin/vouchers/${voucher.id}/redemptions`, undefined, staff.token);
    expect(redemptions.body.total).toBe(2);
    expect(redemptions.body.data.map((r) => r.user.username).sort()).toEqual(
      customers.map((c) => c.user.username).sort(),
    );
    expect(redemptions.body.data.every((r) => r.orderStatus === 'paid')).toBe(true);
  });
});
