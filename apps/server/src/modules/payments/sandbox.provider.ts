import type { PaymentProvider } from '../../core/payment-provider.ts';

/**
 * The embedded test provider: no money moves. Its checkout page is the marketplace page of our
 * own web app (`?checkout=<orderId>`, shown as MODE TEST) whose buttons call
 * `POST /api/payments/sandbox/:orderId/:action`.
 */
export function createSandboxProvider(): PaymentProvider {
  return {
    name: 'sandbox',
    async createCheckout(order) {
      return { providerRef: `sandbox_${order.id}`, checkoutUrl: `/account/marketplace?checkout=${order.id}` };
    },
    async cancelCheckout() {
      // The sandbox page reads the order's state: nothing to close.
    },
    async refund() {
      // Nothing was charged.
    },
  };
}
