import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  PUBLIC_INSTALLATION_ENV,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../../test/harness.ts';

/** Only money that was paid has a receipt, and the receipt names who sold it, as the law asks. */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let packageId: string;

type Receipt = {
  order: { id: string; number: string; status: string; paidAt: string | null; refundedAt: string | null };
  seller: {
    name: string;
    url: string;
    address: string | null;
    companyId: string | null;
    vatNumber: string | null;
  };
  tax: { ratePercent: number; netCents: number; vatCents: number } | null;
  paymentMethod: string;
};

beforeAll(async () => {
  server = await startTestServer({
    env: {
      PUBLIC_URL: 'https://bots.example.fr/',
      ...PUBLIC_INSTALLATION_ENV,
      SELLER_NAME: 'BotForge SAS',
      SELLER_ADDRESS: '12 rue des Lilas, 75011 Paris',
      SELLER_COMPANY_ID: 'SIRET 123 456 789 00012',
      SELLER_VAT_NUMBER: 'FR12123456789',
      SELLER_VAT_RATE: '20',
    },
  });
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_managePackages', 'can_manageSettings'] });
  packageId = (
    await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      {
        name: 'Mensuel',
        priceCents: 1200,
        durationDays: 30,
        grants: ['can_useGathering'],
        whitelistSlots: 1,
      },
      staff.token,
    )
  ).body.data.id;
});
afterAll(() => server.close());

async function orderIn(customer: TestUser, action?: 'succeed' | 'fail' | 'abandon') {
  const order = (await call<{ data: { id: string } }>('POST', '/me/orders', { packageId }, customer.token))
    .body.data;
  if (action) await call('POST', `/payments/sandbox/${order.id}/${action}`, undefined, customer.token);
  return order;
}

const receiptOf = (customer: TestUser, orderId: string) =>
  call<{ data: Receipt; code?: string }>('GET', `/me/orders/${orderId}/receipt`, undefined, customer.token);

describe('receipts', () => {
  it('a paid order’s receipt names the seller, the VAT, the payment date and method, the public address', async () => {
    const customer = await server.createUser();
    const order = await orderIn(customer, 'succeed');

    const answer = await receiptOf(customer, order.id);

    expect(answer.status).toBe(200);
    expect(answer.body.data.seller).toEqual({
      name: 'BotForge SAS',
      url: 'https://bots.example.fr',
      address: '12 rue des Lilas, 75011 Paris',
      companyId: 'SIRET 123 456 789 00012',
      vatNumber: 'FR12123456789',
    });
    // 12.00 € including 20 % VAT: 10.00 € before tax, 2.00 € of VAT.
    expect(answer.body.data.tax).toEqual({ ratePercent: 20, netCents: 1000, vatCents: 200 });
    expect(answer.body.data.order.paidAt).not.toBeNull();
    expect(answer.body.data.paymentMethod).toBe('Bac à sable (test)');
  });

  it.each([
    ['pending', undefined],
    ['failed', 'fail'],
    ['cancelled', 'abandon'],
  ] as const)('a %s order has no receipt (409)', async (_status, action) => {
    const customer = await server.createUser();
    const order = await orderIn(customer, action);
    const answer = await receiptOf(customer, order.id);
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('RECEIPT_UNAVAILABLE');
  });

  it('a refunded order’s receipt shows its refund; staff see the same receipt', async () => {
    const customer = await server.createUser();
    const order = await orderIn(customer, 'succeed');
    expect((await call('POST', `/admin/payments/${order.id}/refund`, {}, staff.token)).status).toBe(200);

    const mine = await receiptOf(customer, order.id);
    const staffs = await call<{ data: Receipt }>(
      'GET',
      `/admin/payments/${order.id}/receipt`,
      undefined,
      staff.token,
    );

    expect(mine.body.data.order.status).toBe('refunded');
    expect(mine.body.data.order.refundedAt).not.toBeNull();
    expect(staffs.status).toBe(200);
    expect({ ...staffs.body.data, issuedAt: null }).toEqual({ ...mine.body.data, issuedAt: null });
    expect((await call('GET', `/admin/payments/${order.id}/receipt`, undefined, customer.token)).status).toBe(
      403,
    );
  });

  it('without a VAT rate there is no VAT line; the seller defaults to the product’s name', async () => {
    const plain = await startTestServer();
    try {
      const plainCall = apiClient(plain);
      const manager = await plain.createUser({ permissions: ['can_managePackages'] });
      const id = (
        await plainCall<{ data: { id: string } }>(
          'POST',
          '/admin/packages',
          { name: 'Mensuel', priceCents: 900, durationDays: 30, grants: [], whitelistSlots: 1 },
          manager.token,
        )
      ).body.data.id;
      const customer = await plain.createUser();
      const order = (
        await plainCall<{ data: { id: string } }>('POST', '/me/orders', { packageId: id }, customer.token)
      ).body.data;
      await plainCall('POST', `/payments/sandbox/${order.id}/succeed`, undefined, customer.token);
      const receipt = await plainCall<{ data: Receipt }>(
        'GET',
        `/me/orders/${order.id}/receipt`,
        undefined,
        customer.token,
      );
      expect(receipt.body.data.tax).toBeNull();
      expect(receipt.body.data.seller).toMatchObject({ name: 'BotForge', address: null, vatNumber: null });
      expect(receipt.body.data.seller.url).toBe(plain.ctx.config.publicUrl);
    } finally {
      await plain.close();
    }
  });
});
