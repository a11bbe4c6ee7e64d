import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { userGrants } from '../access/index.ts';
import { orders } from './orders.table.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let gathering: { id: string };
let both: { id: string };

type Order = {
  id: string;
  number: string;
  status: string;
  provider: string;
  amountCents: number;
  discountCents: number;
  checkoutUrl: string | null;
  startsAt: string | null;
  endsAt: string | null;
  voucherCode: string | null;
};

const DAY_MS = 86_400_000;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_managePackages', 'can_manageVoucher'] });
  const make = async (name: string, grants: string[], whitelistSlots: number) => {
    const answer = await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      { name, priceCents: 1000, durationDays: 30, grants, whitelistSlots },
      staff.token,
    );
    expect(answer.status).toBe(201);
    return answer.body.data;
  };
  gathering = await make('Récolte', ['can_useGathering'], 2);
  both = await make('Complet', ['can_useGathering', 'can_useTreasure'], 3);
});
afterAll(() => server.close());

async function checkout(customer: TestUser, packageId: string, voucherCode?: string) {
  return call<{ data: Order }>('POST', '/me/orders', { packageId, voucherCode }, customer.token);
}

async function pay(customer: TestUser, order: Order, action = 'succeed') {
  return call<{ data: Order }>('POST', `/payments/sandbox/${order.id}/${action}`, undefined, customer.token);
}

const permissionsOf = async (customer: TestUser) =>
  (await call<{ data: string[] }>('GET', '/me/permissions', undefined, customer.token)).body.data;

describe('guards', () => {
  it.each([
    ['GET', '/me/orders'],
    ['POST', '/me/orders', { packageId: newId() }],
    ['GET', `/me/orders/${newId()}`],
    ['GET', `/me/orders/${newId()}/receipt`],
    ['GET', '/me/subscriptions'],
    ['POST', `/payments/sandbox/${newId()}/succeed`],
    ['POST', '/me/vouchers/preview', { code: 'ABCD' }],
  ] as [string, string, unknown?][])('%s %s: 401 without a session', async (method, path, payload) => {
    expect((await call(method, path, payload)).status).toBe(401);
  });
});

describe('checkout with the sandbox provider', () => {
  it('starts a pending order pointing at the sandbox checkout page', async () => {
    const customer = await server.createUser();
    const started = await checkout(customer, gathering.id);
    expect(started.status).toBe(201);
    expect(started.body.data).toMatchObject({ status: 'pending', provider: 'sandbox', amountCents: 1000 });
    expect(started.body.data.number).toMatch(/^CMD-\d{6}$/);
    expect(started.body.data.checkoutUrl).toBe(`/account/marketplace?checkout=${started.body.data.id}`);
    expect(await permissionsOf(customer)).not.toContain('can_useGathering');
  });

  it('paying grants the permissions until the end date, once; buying again extends from the end date', async () => {
    const customer = await server.createUser();
    const first = (await checkout(customer, both.id)).body.data;
    const paid = await pay(customer, first);
    expect(paid.status).toBe(200);
    expect(paid.body.data.status).toBe('paid');
    const firstEnd = new Date(paid.body.data.endsAt ?? '').getTime();
    expect(firstEnd - Date.now()).toBeGreaterThan(29.9 * DAY_MS);
    expect(await permissionsOf(customer)).toEqual(
      expect.arrayContaining(['can_useGathering', 'can_useTreasure']),
    );

    // A second success on the same order changes nothing.
    expect((await pay(customer, first)).status).toBe(409);
    expect((await pay(customer, first, 'fail')).status).toBe(409);
    const grants = await server.ctx.db.select().from(userGrants).where(eq(userGrants.sourceId, first.id));
    expect(grants).toHaveLength(2);

    const second = (await checkout(customer, both.id)).body.data;
    const renewed = (await pay(customer, second)).body.data;
    expect(new Date(renewed.startsAt ?? '').getTime()).toBe(firstEnd);
    expect(new Date(renewed.endsAt ?? '').getTime()).toBe(firstEnd + 30 * DAY_MS);

    const subscriptions = await call<{ data: { packageId: string; endsAt: string }[] }>(
      'GET',
      '/me/subscriptions',
      undefined,
      customer.token,
    );
    expect(subscriptions.body.data).toEqual([
      expect.objectContaining({ packageId: both.id, endsAt: renewed.endsAt }),
    ]);
  });

  it('fail and abandon close the order without granting anything', async () => {
    const customer = await server.createUser();
    const failed = (await checkout(customer, gathering.id)).body.data;
    expect((await pay(customer, failed, 'fail')).body.data.status).toBe('failed');
    const abandoned = (await checkout(customer, gathering.id)).body.data;
    expect((await pay(customer, abandoned, 'abandon')).body.data.status).toBe('cancelled');
    expect((await pay(customer, abandoned)).status).toBe(409);
    expect(await permissionsOf(customer)).toEqual([]);
    const mine = await call<{ data: Order[] }>('GET', '/me/orders', undefined, customer.token);
    expect(mine.body.data.map((order) => order.status)).toEqual(['cancelled', 'failed']);
    expect(mine.body.data.every((order) => order.checkoutUrl === null)).toBe(true);
  });

  it('a pending order past its time expires and can no longer be paid', async () => {
    const customer = await server.createUser();
    const order = (await checkout(customer, gathering.id)).body.data;
    await server.ctx.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order.id));
    expect((await pay(customer, order)).status).toBe(409);
    const mine = await call<{ data: Order[] }>('GET', '/me/orders', undefined, customer.token);
    expect(mine.body.data[0]?.status).toBe('expired');
  });

  it("another customer's order is a 404 everywhere", async () => {
    const owner = await server.createUser();
    const stranger = await server.createUser();
    const order = (await checkout(owner, gathering.id)).body.data;
    const notFound = { status: 404, body: { code: 'ORDER_NOT_FOUND' } };
    expect(await pay(stranger, order)).toMatchObject(notFound);
    expect(await call('GET', `/me/orders/${order.id}`, undefined, stranger.token)).toMatchObject(notFound);
    expect(await call('GET', `/me/orders/${order.id}/receipt`, undefined, stranger.token)).toMatchObject(
      notFound,
    );
    expect((await call('GET', `/me/orders/${order.id}`, undefined, owner.token)).status).toBe(200);
  });

  it('refuses unknown, inactive or malformed packages and unknown fields', async () => {
    const customer = await server.createUser();
    expect((await checkout(customer, newId())).body).toMatchObject({ code: 'PACKAGE_NOT_AVAILABLE' });
    const hidden = await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      { name: 'Caché', priceCents: 500, durationDays: 7, grants: [], whitelistSlots: 1, active: false },
      staff.token,
    );
    expect((await checkout(customer, hidden.body.data.id)).status).toBe(409);
    expect((await call('POST', '/me/orders', { packageId: 'nope' }, customer.token)).status).toBe(400);
    expect((await call('POST', '/me/orders', { packageId: gathering.id, x: 1 }, customer.token)).status).toBe(
      400,
    );
    expect(
      (await call('POST', `/payments/sandbox/${newId()}/explode`, undefined, customer.token)).status,
    ).toBe(400);
  });

  it('gives a printable receipt', async () => {
    const customer = await server.createUser();
    const order = (await checkout(customer, gathering.id)).body.data;
    await pay(customer, order);
    const receipt = await call<{ data: { order: Order; customer: { username: string } } }>(
      'GET',
      `/me/orders/${order.id}/receipt`,
      undefined,
      customer.token,
    );
    expect(receipt.status).toBe(200);
    expect(receipt.body.data.order).toMatchObject({ id: order.id, status: 'paid', number: order.number });
    expect(receipt.body.data.customer.username).toBe(customer.user.username);
  });
});

describe('vouchers at checkout', () => {
  async function voucher(body: Record<string, unknown>) {
    const answer = await call<{ data: { id: string; code: string; redemptionsCount: number } }>(
      'POST',
      '/admin/vouchers',
      body,
      staff.token,
    );
    expect(answer.status).toBe(201);
    return answer.body.data;
  }

  it('previews then applies a percent voucher; a failed payment gives the use back', async () => {
    const customer = await server.createUser();
    const { code, id } = await voucher({ kind: 'percent', percentOff: 25, maxRedemptions: 1 });
    const preview = await call<{ data: { prices: { packageId: string; amountCents: number }[] } }>(
      'POST',
      '/me/vouchers/preview',
      { code: code.toLowerCase(), packageId: gathering.id },
      customer.token,
    );
    expect(preview.status).toBe(200);
    expect(preview.body.data.prices).toEqual([
      expect.objectContaining({ packageId: gathering.id, amountCents: 750 }),
    ]);

    const order = (await checkout(customer, gathering.id, code)).body.data;
    expect(order).toMatchObject({ amountCents: 750, discountCents: 250, voucherCode: code });
    const other = await server.createUser();
    expect((await checkout(other, gathering.id, code)).body).toMatchObject({ code: 'VOUCHER_EXHAUSTED' });

    await pay(customer, order, 'fail');
    const after = await call<{ data: { redemptionsCount: number } }>(
      'GET',
      `/admin/vouchers/${id}`,
      undefined,
      staff.token,
    );
    expect(after.body.data.redemptionsCount).toBe(0);
    const retry = (await checkout(other, gathering.id, code)).body.data;
    expect(retry.amountCents).toBe(750);
  });

  it('a gift voucher pays nothing and fulfils at once', async () => {
    const customer = await server.createUser();
    const { code } = await voucher({ kind: 'gift', packageId: gathering.id });
    expect((await checkout(customer, both.id, code)).body).toMatchObject({ code: 'VOUCHER_NOT_APPLICABLE' });
    const gift = await checkout(customer, gathering.id, code);
    expect(gift.status).toBe(201);
    expect(gift.body.data).toMatchObject({
      status: 'paid',
      provider: 'voucher',
      amountCents: 0,
      discountCents: 1000,
    });
    expect(await permissionsOf(customer)).toContain('can_useGathering');
  });

  it('fixed amounts never go below zero; per-customer limits, dates and inactive codes are refused', async () => {
    const customer = await server.createUser();
    const big = await voucher({ kind: 'fixed', amountOffCents: 5000 });
    expect((await checkout(customer, gathering.id, big.code)).body.data).toMatchObject({
      amountCents: 0,
      status: 'paid',
    });
    const once = await voucher({ kind: 'fixed', amountOffCents: 100, perCustomerLimit: 1 });
    const first = (await checkout(customer, gathering.id, once.code)).body.data;
    expect(first.amountCents).toBe(900);
    // Paid, the use is the customer's for good: the limit of one is reached.
    await pay(customer, first);
    expect((await checkout(customer, both.id, once.code)).body).toMatchObject({
      code: 'VOUCHER_CUSTOMER_LIMIT',
    });
    expect(
      (await call('POST', '/me/vouchers/preview', { code: once.code }, customer.token)).body,
    ).toMatchObject({ code: 'VOUCHER_CUSTOMER_LIMIT' });

    const later = await voucher({
      kind: 'percent',
      percentOff: 10,
      startsAt: new Date(Date.now() + DAY_MS).toISOString(),
    });
    expect((await checkout(customer, gathering.id, later.code)).body).toMatchObject({
      code: 'VOUCHER_NOT_STARTED',
    });
    const past = await voucher({
      kind: 'percent',
      percentOff: 10,
      startsAt: new Date(Date.now() - 2 * DAY_MS).toISOString(),
      endsAt: new Date(Date.now() - DAY_MS).toISOString(),
    });
    expect((await checkout(customer, gathering.id, past.code)).body).toMatchObject({
      code: 'VOUCHER_EXPIRED',
    });
    const off = await voucher({ kind: 'percent', percentOff: 10, active: false });
    expect((await checkout(customer, gathering.id, off.code)).body).toMatchObject({
      code: 'VOUCHER_INVALID',
    });
    expect((await checkout(customer, gathering.id, 'NOPE-NOPE')).status).toBe(404);
  });
});

describe('voucher guessing', () => {
  it('is rate limited per user (429 with Retry-After), valid codes included once over the limit', async () => {
    const limited = await startTestServer({ rateLimits: { voucherGuess: { max: 3, windowMs: 60_000 } } });
    try {
      const limitedCall = apiClient(limited);
      const customer = await limited.createUser();
      for (let i = 0; i < 3; i += 1) {
        const answer = await limitedCall(
          'POST',
          '/me/vouchers/preview',
          { code: `GUESS${i}` },
          customer.token,
        );
        expect(answer.status).toBe(404);
      }
      const blocked = await limitedCall('POST', '/me/vouchers/preview', { code: 'GUESS9' }, customer.token);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      const viaOrder = await limitedCall(
        'POST',
        '/me/orders',
        { packageId: newId(), voucherCode: 'X1234' },
        customer.token,
      );
      expect(viaOrder.status).toBe(429);
      // The IP is shared by every customer here: a second account is blocked too.
      const other = await limited.createUser();
      expect(
        (await limitedCall('POST', '/me/vouchers/preview', { code: 'GUESS0' }, other.token)).status,
      ).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('order rows', () => {
  it('tie each grant to its order and expire it with the order period', async () => {
    const customer = await server.createUser();
    const order = (await checkout(customer, gathering.id)).body.data;
    const paid = (await pay(customer, order)).body.data;
    const grants = await server.ctx.db
      .select()
      .from(userGrants)
      .where(and(eq(userGrants.userId, customer.user.id), eq(userGrants.source, 'order')));
    expect(grants.map((grant) => grant.sourceId)).toEqual([order.id]);
    expect(grants[0]?.expiresAt?.toISOString()).toBe(paid.endsAt);
  });
});
