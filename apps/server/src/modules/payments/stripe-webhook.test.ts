import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { userGrants } from '../access/index.ts';
import { auditLog } from '../audit/index.ts';
import { orders } from '../orders/index.ts';
import { paymentEvents } from './payment-webhooks.table.ts';

const WEBHOOK_SECRET = 'whsec_test_commerce_secret';
const stripe = new Stripe('sk_test_not_used');

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let packageId: string;
let eventCounter = 0;

beforeAll(async () => {
  server = await startTestServer({
    env: { STRIPE_SECRET_KEY: 'sk_test_not_used', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
  });
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_managePackages'] });
  const created = await call<{ data: { id: string } }>(
    'POST',
    '/admin/packages',
    {
      name: 'Complet',
      priceCents: 1990,
      durationDays: 30,
      grants: ['can_useGathering', 'can_useTreasure'],
      whitelistSlots: 2,
    },
    staff.token,
  );
  packageId = created.body.data.id;
});
afterAll(() => server.close());

/** A pending Stripe order, as `createOrder` leaves it once Stripe answered with a session. */
async function pendingStripeOrder(): Promise<{ orderId: string; sessionId: string; customer: TestUser }> {
  const customer = await server.createUser();
  const orderId = newId();
  const sessionId = `cs_test_${orderId.replaceAll('-', '')}`;
  await server.ctx.db.insert(orders).values({
    id: orderId,
    userId: customer.user.id,
    packageId,
    packageName: 'Complet',
    durationDays: 30,
    grants: ['can_useGathering', 'can_useTreasure'],
    whitelistSlots: 2,
    provider: 'stripe',
    providerRef: sessionId,
    checkoutUrl: `https://checkout.stripe.com/c/pay/${sessionId}`,
    priceCents: 1990,
    amountCents: 1990,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return { orderId, sessionId, customer };
}

function eventBody(
  type: string,
  session: { id: string; orderId: string; paymentStatus?: string; amount?: number },
  eventId = `evt_test_${++eventCounter}`,
): string {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    type,
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        client_reference_id: session.orderId,
        metadata: { orderId: session.orderId },
        payment_status: session.paymentStatus ?? 'paid',
        amount_total: session.amount ?? 1990,
        currency: 'eur',
        payment_intent: `pi_${session.id.slice(8)}`,
      },
    },
  });
}

function signed(
  payload: string,
  options: { secret?: string; timestamp?: number } = {},
): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'stripe-signature': stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    }),
  };
}

const deliver = (payload: string, headers: Record<string, string>) =>
  call<{ received?: boolean; outcome?: string; code?: string }>(
    'POST',
    '/payments/stripe/webhook',
    payload,
    undefined,
    headers,
  );

async function stateOf(orderId: string) {
  const [order] = await server.ctx.db.select().from(orders).where(eq(orders.id, orderId));
  const grants = await server.ctx.db.select().from(userGrants).where(eq(userGrants.sourceId, orderId));
  return { status: order?.status, grants: grants.length, order };
}

describe('signature checks', () => {
  it('refuses an unsigned delivery', async () => {
    const { orderId, sessionId } = await pendingStripeOrder();
    const payload = eventBody('checkout.session.completed', { id: sessionId, orderId });
    const answer = await deliver(payload, { 'content-type': 'application/json' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect((await stateOf(orderId)).status).toBe('pending');
  });

  it('refuses a signature made with another secret', async () => {
    const { orderId, sessionId } = await pendingStripeOrder();
    const payload = eventBody('checkout.session.completed', { id: sessionId, orderId });
    expect((await deliver(payload, signed(payload, { secret: 'whsec_someone_else' }))).status).toBe(400);
    expect((await stateOf(orderId)).status).toBe('pending');
  });

  it('refuses a body altered after signing (even by one space)', async () => {
    const { orderId, sessionId } = await pendingStripeOrder();
    const payload = eventBody('checkout.session.completed', { id: sessionId, orderId });
    const headers = signed(payload);
    expect((await deliver(payload.replace('"amount_total":1990', '"amount_total":1'), headers)).status).toBe(
      400,
    );
    expect((await deliver(`${payload} `, headers)).status).toBe(400);
    expect((await stateOf(orderId)).status).toBe('pending');
  });

  it('refuses a signature older than 300 s or from the future, and accepts one within it', async () => {
    const { orderId, sessionId } = await pendingStripeOrder();
    const payload = eventBody('checkout.session.completed', { id: sessionId, orderId });
    // Offsets keep 30 s from the 300 s limit: the clock ticks between signing and checking.
    const secondsFromNow = (offset: number) => Math.floor(Date.now() / 1000) + offset;
    expect((await deliver(payload, signed(payload, { timestamp: secondsFromNow(-330) }))).status).toBe(400);
    const tenYears = 10 * 365 * 24 * 3600;
    expect((await deliver(payload, signed(payload, { timestamp: secondsFromNow(tenYears) }))).status).toBe(
      400,
    );
    expect((await deliver(payload, signed(payload, { timestamp: secondsFromNow(330) }))).status).toBe(400);
    expect((await stateOf(orderId)).status).toBe('pending');
    const fresh = await deliver(payload, signed(payload, { timestamp: secondsFromNow(-240) }));
    expect(fresh.status).toBe(200);
    expect(fresh.body.outcome).toBe('fulfilled');
  });
});

describe('exactly one fulfilment', () => {
  it('the same event replayed 10 times concurrently fulfils once', async () => {
    const { orderId, sessionId, customer } = await pendingStripeOrder();
    const payload = eventBody('checkout.session.completed', { id: sessionId, orderId });
    const headers = signed(payload);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(payload, headers)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((answer) => answer.body.outcome === 'fulfilled')).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.outcome === 'duplicate')).toHaveLength(9);
    const state = await stateOf(orderId);
    expect(state.status).toBe('paid');
    expect(state.grants).toBe(2);
    expect(state.order?.providerPaymentRef).toBe(`pi_${sessionId.slice(8)}`);
    const permissions = await call<{ data: string[] }>('GET', '/me/permissions', undefined, customer.token);
    expect(permissions.body.data).toEqual(['can_useGathering', 'can_useTreasure']);
  });

  it('different events for one order, concurrently and repeatedly, fulfil once', async () => {
    const { orderId, sessionId } = await pendingStripeOrder();
    const deliveries = ['checkout.session.completed', 'checkout.session.async_payment_succeeded'].flatMap(
      (type) =>
        Array.from({ length: 5 }, () => {
          const payload = eventBody(type, { id: sessionId, orderId });
          return deliver(payload, signed(payload));
        }),
    );
    const answers = await Promise.all(deliveries);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.body.outcome === 'fulfilled')).toHaveLength(1);
    expect((await stateOf(orderId)).grants).toBe(2);
    const events = await server.ctx.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId));
    expect(events).toHaveLength(10);
  });

  it('out of order: async success before the completed (unpaid) event, then a late expiry', async () => {
    const { orderId, sessionId } = await pendingStripeOrder();
    const succeeded = eventBody('checkout.session.async_payment_succeeded', { id: sessionId, orderId });
    expect((await deliver(succeeded, signed(succeeded))).body.outcome).toBe('fulfilled');
    const completed = eventBody('checkout.session.completed', {
      id: sessionId,
      orderId,
      paymentStatus: 'unpaid',
    });
    expect((await deliver(completed, signed(completed))).body.outcome).toBe('awaiting_payment');
    const expired = eventBody('checkout.session.expired', {
      id: sessionId,
      orderId,
      paymentStatus: 'unpaid',
    });
    expect((await deliver(expired, signed(expired))).body.outcome).toBe('already_paid');
    const state = await stateOf(orderId);
    expect(state).toMatchObject({ status: 'paid', grants: 2 });
  });

  it('out of order: a payment confirmed after a local expiry still fulfils, once', async () => {
    const { orderId, sessionId } = await pendingStripeOrder();
    const expired = eventBody('checkout.session.expired', {
      id: sessionId,
      orderId,
      paymentStatus: 'unpaid',
    });
    expect((await deliver(expired, signed(expired))).body.outcome).toBe('expired');
    const completed = eventBody('checkout.session.completed', { id: sessionId, orderId });
    expect((await deliver(completed, signed(completed))).body.outcome).toBe('fulfilled');
    const again = eventBody('checkout.session.completed', { id: sessionId, orderId });
    expect((await deliver(again, signed(again))).body.outcome).toBe('already_paid');
    expect(await stateOf(orderId)).toMatchObject({ status: 'paid', grants: 2 });
  });

  it('a failed async payment closes the order; an amount mismatch or an unknown session grants nothing', async () => {
    const failedOrder = await pendingStripeOrder();
    const failed = eventBody('checkout.session.async_payment_failed', {
      id: failedOrder.sessionId,
      orderId: failedOrder.orderId,
    });
    expect((await deliver(failed, signed(failed))).body.outcome).toBe('failed');
    expect((await stateOf(failedOrder.orderId)).status).toBe('failed');

    const cheap = await pendingStripeOrder();
    const mismatch = eventBody('checkout.session.completed', {
      id: cheap.sessionId,
      orderId: cheap.orderId,
      amount: 1,
    });
    expect((await deliver(mismatch, signed(mismatch))).body.outcome).toBe('amount_mismatch');
    expect(await stateOf(cheap.orderId)).toMatchObject({ status: 'pending', grants: 0 });

    const unknown = eventBody('checkout.session.completed', { id: 'cs_test_unknown', orderId: newId() });
    expect((await deliver(unknown, signed(unknown))).body.outcome).toBe('unknown_order');
    const other = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    });
    expect((await deliver(other, signed(other))).body.outcome).toBe('ignored');
  });
});

describe('refunds made at Stripe', () => {
  function chargeRefunded(paymentIntent: string, refunded: boolean, eventId = `evt_test_${++eventCounter}`) {
    return JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'charge.refunded',
      data: {
        object: { id: `ch_${eventCounter}`, object: 'charge', payment_intent: paymentIntent, refunded },
      },
    });
  }

  it('a full refund revokes the grants once (audited); a partial one changes nothing', async () => {
    const { orderId, sessionId, customer } = await pendingStripeOrder();
    const completed = eventBody('checkout.session.completed', { id: sessionId, orderId });
    expect((await deliver(completed, signed(completed))).body.outcome).toBe('fulfilled');
    const paymentIntent = `pi_${sessionId.slice(8)}`;

    const partial = chargeRefunded(paymentIntent, false);
    expect((await deliver(partial, signed(partial))).body.outcome).toBe('partial_refund');
    expect(await stateOf(orderId)).toMatchObject({ status: 'paid', grants: 2 });

    const full = chargeRefunded(paymentIntent, true);
    expect((await deliver(full, signed(full))).body.outcome).toBe('refunded');
    expect(await stateOf(orderId)).toMatchObject({ status: 'refunded', grants: 0 });
    const permissions = await call<{ data: string[] }>('GET', '/me/permissions', undefined, customer.token);
    expect(permissions.body.data).toEqual([]);
    const [entry] = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.refund'), eq(auditLog.targetId, orderId)));
    expect(entry).toMatchObject({ actorId: null, actorUsername: 'stripe' });

    const echo = chargeRefunded(paymentIntent, true);
    expect((await deliver(echo, signed(echo))).body.outcome).toBe('already_refunded');
    const unknown = chargeRefunded('pi_unknown', true);
    expect((await deliver(unknown, signed(unknown))).body.outcome).toBe('unknown_order');
  });
});

describe('with Stripe configured', () => {
  it('the sandbox buttons are disabled', async () => {
    const customer = await server.createUser();
    const answer = await call('POST', `/payments/sandbox/${newId()}/succeed`, undefined, customer.token);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'SANDBOX_DISABLED' });
  });

  it('other routes still parse JSON normally', async () => {
    const customer = await server.createUser();
    const answer = await call('POST', '/me/whitelist', { name: 'Compte-Json' }, customer.token);
    expect(answer.status).toBe(409); // no slots: the body was parsed and validated
  });
});

describe('without Stripe configured', () => {
  it('the webhook route answers 404', async () => {
    const plain = await startTestServer();
    try {
      const payload = JSON.stringify({ id: 'evt_x', object: 'event', type: 'checkout.session.completed' });
      const answer = await apiClient(plain)(
        'POST',
        '/payments/stripe/webhook',
        payload,
        undefined,
        signed(payload),
      );
      expect(answer.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
