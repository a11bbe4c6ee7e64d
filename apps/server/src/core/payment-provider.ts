/**
 * What a provider reads of an order (an `orders` row fits it): declared here, beside the port, so
 * the context that carries the provider (`ctx.payments`) imports no module (decision 010).
 */
interface PaymentOrder {
  id: string;
  amountCents: number;
  currency: string;
  packageName: string;
  expiresAt: Date;
  checkoutUrl: string | null;
  providerRef: string | null;
  providerPaymentRef: string | null;
}

interface CheckoutStart {
  /** The provider's id for this checkout (unique per provider). */
  providerRef: string;
  /** Where the browser goes to pay: absolute (Stripe) or a path of our web app (sandbox). */
  checkoutUrl: string;
}

/**
 * What a payment provider does for us; the order state machine stays ours (orders.service). The
 * context carries it (`ctx.payments`): the orders module uses it, the payments module implements it.
 */
export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  createCheckout(order: PaymentOrder, customer: { email: string }): Promise<CheckoutStart>;
  /** Closes the checkout page of an order the customer cancelled (no-op when there is none). */
  cancelCheckout(order: PaymentOrder): Promise<void>;
  /** Gives the money back at the provider; the caller then revokes what the order granted. */
  refund(order: PaymentOrder): Promise<void>;
}
