import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { userGrants } from '../access/index.ts';
import { auditLog } from '../audit/index.ts';
import { orders } from './orders.table.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let outsider: TestUser;
let packageId: string;
let buyer: TestUser;
let paidOrderId: string;

type Payment = {
  id: string;
  status: string;
  amountCents: number;
  user: { username: string };
  provider: string;
};
type Page = {
  data: Payment[];
  total: number;
  totals: { paidCount: number; paidCents: number; refundedCount: number; refundedCents: number };
};

async function order(customer: TestUser, action?: 'succeed' | 'fail') {
  const started = await call<{ data: { id: string } }>('POST', '/me/orders', { packageId }, customer.token);
  if (action)
    await call('POST', `/payments/sandbox/${started.body.data.id}/${action}`, undefined, customer.token);
  return started.body.data.id;
}

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_manageSettings', 'can_managePackages'] });
  outsider = await server.createUser({ permissions: ['can_managePackages', 'can_manageVoucher'] });
  packageId = (
    await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      { name: 'Trésor', priceCents: 1250, durationDays: 30, grants: ['can_useTreasure'], whitelistSlots: 1 },
      staff.token,
    )
  ).body.data.id;
  buyer = await server.createUser();
  paidOrderId = await order(buyer, 'succeed');
  await order(buyer, 'succeed');
  await order(buyer, 'fail');
  await order(buyer);
  const other = await server.createUser();
  await order(other, 'succeed');
});
afterAll(() => server.close());

describe('guards', () => {
  const someId = newId();
  it.each([
    ['GET', '/admin/payments'],
    ['GET', '/admin/payments/export.csv'],
    ['GET', `/admin/payments/${someId}`],
    ['POST', `/admin/payments/${someId}/refund`, {}],
  ] as [string, string, unknown?][])(
    '%s %s: 401, 403 without can_manageSettings',
    async (method, path, payload) => {
      expect((await call(method, path, payload)).status).toBe(401);
      expect((await call(method, path, payload, outsider.token)).status).toBe(403);
      expect([200, 404]).toContain((await call(method, path, payload, staff.token)).status);
    },
  );
});

describe('payments', () => {
  it('lists every payment with pagination and totals', async () => {
    const page = await call<Page>('GET', '/admin/payments?pageSize=2&page=1', undefined, staff.token);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(5);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.totals).toMatchObject({ paidCount: 3, paidCents: 3750, refundedCount: 0 });
    const second = await call<Page>('GET', '/admin/payments?pageSize=2&page=3', undefined, staff.token);
    expect(second.body.data).toHaveLength(1);
  });

  it('filters by status, provider, user, search and period', async () => {
    const paid = await call<Page>('GET', '/admin/payments?status=paid', undefined, staff.token);
    expect(paid.body.total).toBe(3);
    expect(paid.body.data.every((payment) => payment.status === 'paid')).toBe(true);
    const mine = await call<Page>(`GET`, `/admin/payments?userId=${buyer.user.id}`, undefined, staff.token);
    expect(mine.body.total).toBe(4);
    expect(mine.body.totals.paidCents).toBe(2500);
    const search = await call<Page>(
      'GET',
      `/admin/payments?q=${buyer.user.username}&status=failed`,
      undefined,
      staff.token,
    );
    expect(search.body.total).toBe(1);
    expect(
      (await call<Page>('GET', '/admin/payments?provider=stripe', undefined, staff.token)).body.total,
    ).toBe(0);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const none = await call<Page>(
      'GET',
      `/admin/payments?from=${encodeURIComponent(future)}`,
      undefined,
      staff.token,
    );
    expect(none.body).toMatchObject({ total: 0, totals: { paidCount: 0, paidCents: 0 } });
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const all = await call<Page>(
      'GET',
      `/admin/payments?from=${encodeURIComponent(past)}&to=${encodeURIComponent(future)}`,
      undefined,
      staff.token,
    );
    expect(all.body.total).toBe(5);
    expect((await call('GET', '/admin/payments?status=lost', undefined, staff.token)).status).toBe(400);
    expect((await call('GET', '/admin/payments?from=hier', undefined, staff.token)).status).toBe(400);
    const sorted = await call<Page>('GET', '/admin/payments?sort=-amountCents', undefined, staff.token);
    expect(sorted.status).toBe(200);
  });

  it('exports the filtered payments as CSV', async () => {
    const response = await fetch(`${server.api}/admin/payments/export.csv?status=paid`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    const lines = (await response.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toContain('Commande');
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((line) => line.includes('Payée') && line.includes('12.50'))).toBe(true);
  });

  it('refunds a paid order: revokes what it granted, audited; only once', async () => {
    const before = await call<{ data: string[] }>('GET', '/me/permissions', undefined, buyer.token);
    expect(before.body.data).toContain('can_useTreasure');
    const refunded = await call<{ data: Payment }>(
      'POST',
      `/admin/payments/${paidOrderId}/refund`,
      { reason: 'Demande du client' },
      staff.token,
    );
    expect(refunded.status).toBe(200);
    expect(refunded.body.data.status).toBe('refunded');
    const grants = await server.ctx.db.select().from(userGrants).where(eq(userGrants.sourceId, paidOrderId));
    expect(grants).toHaveLength(0);
    // The buyer's second paid order still grants the permission.
    const after = await call<{ data: string[] }>('GET', '/me/permissions', undefined, buyer.token);
    expect(after.body.data).toContain('can_useTreasure');
    const [entry] = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.refund'), eq(auditLog.targetId, paidOrderId)));
    expect(entry).toMatchObject({ actorId: staff.user.id });
    expect((entry?.after as { reason: string; revokedGrants: number } | undefined)?.revokedGrants).toBe(1);

    const again = await call('POST', `/admin/payments/${paidOrderId}/refund`, {}, staff.token);
    expect(again.status).toBe(409);
    const totals = await call<Page>('GET', '/admin/payments', undefined, staff.token);
    expect(totals.body.totals).toMatchObject({
      paidCount: 2,
      paidCents: 2500,
      refundedCount: 1,
      refundedCents: 1250,
    });
  });

  it('refusing to refund what is not paid', async () => {
    const [pending] = await server.ctx.db.select().from(orders).where(eq(orders.status, 'pending'));
    expect((await call('POST', `/admin/payments/${pending?.id}/refund`, {}, staff.token)).body).toMatchObject(
      {
        code: 'ORDER_NOT_REFUNDABLE',
      },
    );
    expect(await call('POST', `/admin/payments/${newId()}/refund`, {}, staff.token)).toMatchObject({
      status: 404,
      body: { code: 'PAYMENT_NOT_FOUND' },
    });
  });

  it('shows one payment', async () => {
    const one = await call<{ data: Payment }>(
      'GET',
      `/admin/payments/${paidOrderId}`,
      undefined,
      staff.token,
    );
    expect(one.body.data).toMatchObject({ id: paidOrderId, user: { username: buyer.user.username } });
  });
});
