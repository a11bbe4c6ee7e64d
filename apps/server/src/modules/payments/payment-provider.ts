import type { OrderRow } from '../orders/index.ts';

interface CheckoutStart {
  /** The provider's id for this checkout (unique per provider). */
  providerRef: string;
  /** Where the browser goes to pay: absolute (Stripe) or a path of our web app (sandbox). */
  checkoutUrl: string;
}

/** What a payment provider does for us; the order state machine stays ours (orders.service). */
export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  createCheckout(order: OrderRow, customer: { email: string }): Promise<CheckoutStart>;
  /** Closes the checkout page of an order the customer cancelled (no-op when there is none). */
  cancelCheckout(order: OrderRow): Promise<void>;
  /** Gives the money back at the provider; the caller then revokes what the order granted. */
  refund(order: OrderRow): Promise<void>;
}
