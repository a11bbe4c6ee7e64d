import Stripe from 'stripe';
import { AppError } from '../../core/errors.ts';
import type { PaymentProvider } from '../../core/payment-provider.ts';

/** Stripe refuses Checkout Sessions expiring sooner than 30 minutes. */
const MIN_SESSION_LIFETIME_MS = 31 * 60_000;

/** `STRIPE_API_URL`, when set, as the SDK's host, port and protocol. */
function endpointOf(apiUrl: string | undefined) {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? ('http' as const) : ('https' as const);
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

/** Stripe Checkout: a hosted payment page, confirmed by signed webhooks (payments.routes). */
export function createStripeProvider(
  keys: { secretKey: string; apiUrl: string | undefined },
  publicUrl: string,
): PaymentProvider {
  const stripe = new Stripe(keys.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...endpointOf(keys.apiUrl),
  });
  const base = publicUrl;
  return {
    name: 'stripe',
    async createCheckout(order, customer) {
      const expiresAt = Math.max(order.expiresAt.getTime(), Date.now() + MIN_SESSION_LIFETIME_MS);
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: order.id,
          customer_email: customer.email,
          metadata: { orderId: order.id },
          payment_intent_data: { metadata: { orderId: order.id } },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: order.currency.toLowerCase(),
                unit_amount: order.amountCents,
                product_data: { name: order.packageName },
              },
            },
          ],
          success_url: `${base}/account/payments?order=${order.id}`,
          cancel_url: `${base}/account/marketplace?cancelled=${order.id}`,
          expires_at: Math.floor(expiresAt / 1000),
        },
        { idempotencyKey: `checkout-${order.id}` },
      );
      // A session without a page to send the customer to is the provider failing.
      if (!session.url) throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
      return { providerRef: session.id, checkoutUrl: session.url };
    },
    async cancelCheckout(order) {
      if (order.providerRef) await stripe.checkout.sessions.expire(order.providerRef);
    },
    async refund(order) {
      if (!order.providerPaymentRef) throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
      await stripe.refunds.create(
        { payment_intent: order.providerPaymentRef, metadata: { orderId: order.id } },
        { idempotencyKey: `refund-${order.id}` },
      );
    },
  };
}
