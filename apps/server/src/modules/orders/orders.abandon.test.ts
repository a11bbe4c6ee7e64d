import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';

/**
 * A checkout the customer walks away from gives back what it held at once: the pending order is
 * cancelled and its voucher use returned, so the next try gets the same price.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let packageId: string;
let otherPackageId: string;

type Order = { id: string; status: string; amountCents: number; checkoutUrl: string | null };

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_managePackages', 'can_manageVoucher'] });
  const make = async (name: string) =>
    (
      await call<{ data: { id: string } }>(
        'POST',
        '/admin/packages',
        { name, priceCents: 1000, durationDays: 30, grants: ['can_useGathering'], whitelistSlots: 1 },
        staff.token,
      )
    ).body.data.id;
  packageId = await make('Mensuel');
  otherPackageId = await make('Trimestriel');
});
afterAll(() => server.close());

const checkout = (customer: TestUser, id: string, voucherCode?: string) =>
  call<{ data: Order; code?: string }>('POST', '/me/orders', { packageId: id, voucherCode }, customer.token);
const cancel = (customer: TestUser, order: Order) =>
  call<{ data: Order; code?: string }>('POST', `/me/orders/${order.id}/cancel`, undefined, customer.token);
const myOrders = async (customer: TestUser) =>
  (await call<{ data: Order[] }>('GET', '/me/orders', undefined, customer.token)).body.data;

async function onePerCustomerVoucher(): Promise<{ id: string; code: string }> {
  const answer = await call<{ data: { id: string; code: string } }>(
    'POST',
    '/admin/vouchers',
    { kind: 'percent', percentOff: 50, perCustomerLimit: 1 },
    staff.token,
  );
  expect(answer.status).toBe(201);
  return answer.body.data;
}

const redemptionsOf = async (voucherId: string) =>
  (
    await call<{ data: { redemptionsCount: number } }>(
      'GET',
      `/admin/vouchers/${voucherId}`,
      undefined,
      staff.token,
    )
  ).body.data.redemptionsCount;

describe('walking away from a checkout', () => {
  it('cancelling a pending order gives the voucher back at once: the next try gets the discount', async () => {
    const customer = await server.createUser();
    const voucher = await onePerCustomerVoucher();
    const first = (await checkout(customer, packageId, voucher.code)).body.data;
    expect(first).toMatchObject({ status: 'pending', amountCents: 500 });

    const cancelled = await cancel(customer, first);

    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id: first.id, status: 'cancelled', checkoutUrl: null });
    expect(await redemptionsOf(voucher.id)).toBe(0);
    const again = await checkout(customer, packageId, voucher.code);
    expect(again.status).toBe(201);
    expect(again.body.data.amountCents).toBe(500);
  });

  it('the sandbox page’s abandon cancels the order too', async () => {
    const customer = await server.createUser();
    const voucher = await onePerCustomerVoucher();
    const order = (await checkout(customer, packageId, voucher.code)).body.data;
    const abandoned = await call<{ data: Order }>(
      'POST',
      `/payments/sandbox/${order.id}/abandon`,
      undefined,
      customer.token,
    );
    expect(abandoned.body.data.status).toBe('cancelled');
    expect((await checkout(customer, packageId, voucher.code)).body.data.amountCents).toBe(500);
  });

  it('a new checkout replaces the pending one, whatever its package, instead of piling up', async () => {
    const customer = await server.createUser();
    const voucher = await onePerCustomerVoucher();
    const first = (await checkout(customer, packageId, voucher.code)).body.data;
    const second = await checkout(customer, packageId, voucher.code);
    expect(second.status).toBe(201);
    expect(second.body.data.amountCents).toBe(500);
    const other = (await checkout(customer, otherPackageId, voucher.code)).body.data;
    expect(other.amountCents).toBe(500);

    const orders = await myOrders(customer);
    expect(orders.filter((order) => order.status === 'pending').map((order) => order.id)).toEqual([other.id]);
    expect(
      orders
        .filter((order) => order.status === 'cancelled')
        .map((order) => order.id)
        .sort(),
    ).toEqual([first.id, second.body.data.id].sort());
    expect(await redemptionsOf(voucher.id)).toBe(1);
  });

  it('a customer who left a checkout sees their code still apply (its use is theirs); others do not', async () => {
    const customer = await server.createUser();
    const voucher = await onePerCustomerVoucher();
    const single = (
      await call<{ data: { id: string; code: string } }>(
        'POST',
        '/admin/vouchers',
        { kind: 'percent', percentOff: 20, maxRedemptions: 1 },
        staff.token,
      )
    ).body.data;
    await checkout(customer, packageId, voucher.code);
    const preview = (code: string, who: TestUser) =>
      call<{ data: { prices: { packageId: string; amountCents: number }[] }; code?: string }>(
        'POST',
        '/me/vouchers/preview',
        { code, packageId },
        who.token,
      );

    const again = await preview(voucher.code, customer);
    expect(again.status).toBe(200);
    expect(again.body.data.prices).toEqual([expect.objectContaining({ packageId, amountCents: 500 })]);

    // The only use of a single-use code, held by this customer's pending checkout.
    await checkout(customer, packageId, single.code);
    expect((await preview(single.code, customer)).status).toBe(200);
    const stranger = await server.createUser();
    expect((await preview(single.code, stranger)).body.code).toBe('VOUCHER_EXHAUSTED');
    // And buying again with it indeed gets the discount.
    expect((await checkout(customer, packageId, single.code)).body.data.amountCents).toBe(800);
  });

  it('only a pending order of one’s own can be cancelled', async () => {
    const owner = await server.createUser();
    const stranger = await server.createUser();
    const order = (await checkout(owner, packageId)).body.data;
    expect((await cancel(stranger, order)).status).toBe(404);
    expect((await call('POST', `/me/orders/${newId()}/cancel`, undefined, owner.token)).status).toBe(404);
    expect((await call('POST', `/payments/sandbox/${order.id}/succeed`, undefined, owner.token)).status).toBe(
      200,
    );
    const paid = await cancel(owner, order);
    expect(paid.status).toBe(409);
    expect(paid.body.code).toBe('ORDER_NOT_PENDING');
    expect((await call('POST', `/me/orders/${order.id}/cancel`)).status).toBe(401);
  });
});
