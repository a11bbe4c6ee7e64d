import { createServer, type IncomingMessage, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { userGrants } from '../access/index.ts';
import { orders } from '../orders/index.ts';

/**
 * The Stripe provider end to end, with the official client talking to a local stand-in of the
 * Stripe API (no network here): checkout creation, webhook, refund, and Stripe refusing.
 */
const WEBHOOK_SECRET = 'whsec_checkout_flow';
const signer = new Stripe('sk_test_signer');

interface Recorded {
  path: string;
  form: URLSearchParams;
  idempotencyKey: string | undefined;
}

let stripeApi: Server;
const requests: Recorded[] = [];
let failNext: 'session' | 'refund' | null = null;

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let packageId: string;

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

beforeAll(async () => {
  let sessions = 0;
  stripeApi = createServer(async (request, response) => {
    const form = new URLSearchParams(await readBody(request));
    const path = request.url ?? '';
    requests.push({ path, form, idempotencyKey: request.headers['idempotency-key'] as string | undefined });
    response.setHeader('content-type', 'application/json');
    const kind = path.startsWith('/v1/checkout/sessions')
      ? 'session'
      : path.startsWith('/v1/refunds')
        ? 'refund'
        : null;
    if (kind && failNext === kind) {
      failNext = null;
      response.statusCode = 400;
      response.end(
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Refusé pour le test' } }),
      );
      return;
    }
    const expiring = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (expiring) {
      response.end(JSON.stringify({ id: expiring[1], object: 'checkout.session', status: 'expired' }));
      return;
    }
    if (kind === 'session') {
      sessions += 1;
      const id = `cs_test_local_${sessions}`;
      response.end(
        JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}` }),
      );
      return;
    }
    if (kind === 'refund') {
      response.end(JSON.stringify({ id: 're_test_1', object: 'refund', status: 'succeeded' }));
      return;
    }
    response.statusCode = 404;
    response.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'unknown' } }));
  });
  await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
  const { port } = stripeApi.address() as { port: number };

  server = await startTestServer({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: `http://127.0.0.1:${port}`,
    },
  });
  call = apiClient(server);
  staff = await server.createUser({
    permissions: ['can_managePackages', 'can_manageSettings', 'can_manageVoucher'],
  });
  packageId = (
    await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      {
        name: 'Complet',
        priceCents: 1990,
        durationDays: 30,
        grants: ['can_useGathering'],
        whitelistSlots: 1,
      },
      staff.token,
    )
  ).body.data.id;
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => stripeApi?.close(resolve));
});

function deliver(type: string, sessionId: string, orderId: string) {
  const payload = JSON.stringify({
    id: `evt_${sessionId}_${type}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        client_reference_id: orderId,
        metadata: { orderId },
        payment_status: 'paid',
        amount_total: 1990,
        currency: 'eur',
        payment_intent: `pi_${sessionId}`,
      },
    },
  });
  return call<{ outcome: string }>('POST', '/payments/stripe/webhook', payload, undefined, {
    'content-type': 'application/json',
    'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
  });
}

type Order = { id: string; status: string; provider: string; checkoutUrl: string | null };

describe('Stripe Checkout', () => {
  it('creates a Checkout Session, fulfils on the webhook, refunds through Stripe', async () => {
    const customer = await server.createUser();
    const started = await call<{ data: Order }>('POST', '/me/orders', { packageId }, customer.token);
    expect(started.status).toBe(201);
    const order = started.body.data;
    expect(order).toMatchObject({ status: 'pending', provider: 'stripe' });
    expect(order.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_local_\d+$/);

    const created = requests.findLast((request) => request.path === '/v1/checkout/sessions');
    expect(created?.idempotencyKey).toBe(`checkout-${order.id}`);
    expect(created?.form.get('mode')).toBe('payment');
    expect(created?.form.get('client_reference_id')).toBe(order.id);
    expect(created?.form.get('metadata[orderId]')).toBe(order.id);
    expect(created?.form.get('line_items[0][price_data][unit_amount]')).toBe('1990');
    expect(created?.form.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(created?.form.get('customer_email')).toBe(customer.user.email);
    expect(Number(created?.form.get('expires_at')) * 1000 - Date.now()).toBeGreaterThan(30 * 60_000);

    const sessionId = (order.checkoutUrl ?? '').split('/').pop() ?? '';
    expect((await deliver('checkout.session.completed', sessionId, order.id)).body.outcome).toBe('fulfilled');
    const permissions = await call<{ data: string[] }>('GET', '/me/permissions', undefined, customer.token);
    expect(permissions.body.data).toContain('can_useGathering');

    const refunded = await call<{ data: { status: string } }>(
      'POST',
      `/admin/payments/${order.id}/refund`,
      {},
      staff.token,
    );
    expect(refunded.status).toBe(200);
    expect(refunded.body.data.status).toBe('refunded');
    const refund = requests.findLast((request) => request.path === '/v1/refunds');
    expect(refund?.form.get('payment_intent')).toBe(`pi_${sessionId}`);
    expect(refund?.idempotencyKey).toBe(`refund-${order.id}`);
    expect(await server.ctx.db.select().from(userGrants).where(eq(userGrants.sourceId, order.id))).toEqual(
      [],
    );
  });

  it('Stripe refusing the session: 503, the order fails and gives its voucher use back', async () => {
    const customer = await server.createUser();
    const voucher = await call<{ data: { id: string; code: string } }>(
      'POST',
      '/admin/vouchers',
      { kind: 'percent', percentOff: 10, maxRedemptions: 1 },
      staff.token,
    );
    failNext = 'session';
    const answer = await call(
      'POST',
      '/me/orders',
      { packageId, voucherCode: voucher.body.data.code },
      customer.token,
    );
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE' });
    const [order] = await server.ctx.db.select().from(orders).where(eq(orders.userId, customer.user.id));
    expect(order?.status).toBe('failed');
    const shown = await call<{ data: { redemptionsCount: number } }>(
      'GET',
      `/admin/vouchers/${voucher.body.data.id}`,
      undefined,
      staff.token,
    );
    expect(shown.body.data.redemptionsCount).toBe(0);
  });

  it('Stripe refusing the refund: 503, the order stays paid with its grants', async () => {
    const customer = await server.createUser();
    const order = (await call<{ data: Order }>('POST', '/me/orders', { packageId }, customer.token)).body
      .data;
    const sessionId = (order.checkoutUrl ?? '').split('/').pop() ?? '';
    await deliver('checkout.session.completed', sessionId, order.id);
    failNext = 'refund';
    const answer = await call('POST', `/admin/payments/${order.id}/refund`, {}, staff.token);
    expect(answer.status).toBe(503);
    const [row] = await server.ctx.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row?.status).toBe('paid');
    expect(
      await server.ctx.db.select().from(userGrants).where(eq(userGrants.sourceId, order.id)),
    ).toHaveLength(1);
  });

  it('a payment confirmed after the session expired takes the voucher use back', async () => {
    const customer = await server.createUser();
    const voucher = await call<{ data: { id: string; code: string } }>(
      'POST',
      '/admin/vouchers',
      { kind: 'percent', percentOff: 50, maxRedemptions: 5 },
      staff.token,
    );
    const count = async () =>
      (
        await call<{ data: { redemptionsCount: number } }>(
          'GET',
          `/admin/vouchers/${voucher.body.data.id}`,
          undefined,
          staff.token,
        )
      ).body.data.redemptionsCount;
    const order = (
      await call<{ data: Order }>(
        'POST',
        '/me/orders',
        { packageId, voucherCode: voucher.body.data.code },
        customer.token,
      )
    ).body.data;
    expect(await count()).toBe(1);
    const sessionId = (order.checkoutUrl ?? '').split('/').pop() ?? '';
    expect((await deliver('checkout.session.expired', sessionId, order.id)).body.outcome).toBe('expired');
    expect(await count()).toBe(0);
    // The discounted amount (995) is what Stripe charged.
    const payload = JSON.stringify({
      id: `evt_${sessionId}_late`,
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          metadata: { orderId: order.id },
          payment_status: 'paid',
          amount_total: 995,
          currency: 'eur',
          payment_intent: `pi_${sessionId}`,
        },
      },
    });
    const late = await call<{ outcome: string }>('POST', '/payments/stripe/webhook', payload, undefined, {
      'content-type': 'application/json',
      'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    });
    expect(late.body.outcome).toBe('fulfilled');
    expect(await count()).toBe(1);
  });

  it('a cancelled checkout closes its Stripe session; a payment that still arrives is honoured', async () => {
    const customer = await server.createUser();
    const order = (await call<{ data: Order }>('POST', '/me/orders', { packageId }, customer.token)).body
      .data;
    const sessionId = (order.checkoutUrl ?? '').split('/').pop() ?? '';

    const cancelled = await call<{ data: Order }>(
      'POST',
      `/me/orders/${order.id}/cancel`,
      undefined,
      customer.token,
    );

    expect(cancelled.body.data.status).toBe('cancelled');
    expect(requests.some((request) => request.path === `/v1/checkout/sessions/${sessionId}/expire`)).toBe(
      true,
    );
    expect((await deliver('checkout.session.expired', sessionId, order.id)).body.outcome).toBe(
      'already_cancelled',
    );
    // Paid at the very moment it was cancelled: the money is in, the order is fulfilled.
    expect((await deliver('checkout.session.completed', sessionId, order.id)).body.outcome).toBe('fulfilled');
  });

  it('Stripe unreachable when closing the session: the order is cancelled all the same', async () => {
    const customer = await server.createUser();
    const order = (await call<{ data: Order }>('POST', '/me/orders', { packageId }, customer.token)).body
      .data;
    failNext = 'session';
    const cancelled = await call<{ data: Order }>(
      'POST',
      `/me/orders/${order.id}/cancel`,
      undefined,
      customer.token,
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
  });
});
