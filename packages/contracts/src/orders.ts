import { z } from 'zod';
import { listQuery } from './admin.ts';
import { currencySchema } from './catalog.ts';
import { isoDateTime } from './dates.ts';
import { BOT_PERMISSIONS } from './permissions.ts';

/** `cancelled`: the customer closed the checkout (or started another for the same package). */
export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'expired', 'cancelled', 'refunded'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** `voucher`: nothing to pay (gift voucher or 100 % off), fulfilled at once. */
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe', 'voucher'] as const;
export const paymentProviderSchema = z.enum(PAYMENT_PROVIDERS);
export type PaymentProviderName = z.infer<typeof paymentProviderSchema>;

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'En attente',
  paid: 'Payée',
  failed: 'Échouée',
  expired: 'Expirée',
  cancelled: 'Annulée',
  refunded: 'Remboursée',
};

export const PROVIDER_LABELS: Record<PaymentProviderName, string> = {
  sandbox: 'Bac à sable (test)',
  stripe: 'Stripe',
  voucher: 'Bon cadeau',
};

export const orderSchema = z.object({
  id: z.string(),
  /** Short human reference printed on receipts. */
  number: z.string(),
  status: orderStatusSchema,
  provider: paymentProviderSchema,
  packageId: z.string(),
  packageName: z.string(),
  durationDays: z.number().int(),
  grants: z.array(z.enum(BOT_PERMISSIONS)),
  whitelistSlots: z.number().int(),
  priceCents: z.number().int(),
  discountCents: z.number().int(),
  amountCents: z.number().int(),
  currency: currencySchema,
  voucherCode: z.string().nullable(),
  /** Period the order pays for, set when paid. */
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  createdAt: z.string(),
  /** Where to send the customer to pay (pending orders only). */
  checkoutUrl: z.string().nullable(),
});
export type Order = z.infer<typeof orderSchema>;

export const createOrderInput = z.strictObject({
  packageId: z.string().uuid('Identifiant invalide.'),
  voucherCode: z.string().trim().max(64).optional(),
});
export type CreateOrderInput = z.infer<typeof createOrderInput>;

export const orderAnswer = z.object({ data: orderSchema });
export const ordersAnswer = z.object({ data: z.array(orderSchema) });

/** A running subscription: the paid orders of one package, end to end. */
export const packageSubscriptionSchema = z.object({
  packageId: z.string(),
  packageName: z.string(),
  grants: z.array(z.enum(BOT_PERMISSIONS)),
  whitelistSlots: z.number().int(),
  endsAt: z.string(),
});
export type PackageSubscription = z.infer<typeof packageSubscriptionSchema>;
export const subscriptionsAnswer = z.object({ data: z.array(packageSubscriptionSchema) });

/** Sandbox provider: what the test checkout page does. */
export const sandboxActionParams = z.object({
  orderId: z.string().uuid('Identifiant invalide.'),
  action: z.enum(['succeed', 'fail', 'abandon']),
});

/** Printable receipt of a paid (or paid then refunded) order. */
export const receiptSchema = z.object({
  order: orderSchema,
  customer: z.object({ id: z.string(), username: z.string(), email: z.string() }),
  /** Who sold it, from the server's configuration (`SELLER_*`); `url` is the site's public address. */
  seller: z.object({
    name: z.string(),
    url: z.string(),
    address: z.string().nullable(),
    companyId: z.string().nullable(),
    vatNumber: z.string().nullable(),
  }),
  /** Prices include VAT: the part of the total that is tax, when a rate is configured. */
  tax: z
    .object({ ratePercent: z.number(), netCents: z.number().int(), vatCents: z.number().int() })
    .nullable(),
  /** The payment method in words. */
  paymentMethod: z.string(),
  issuedAt: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;
export const receiptAnswer = z.object({ data: receiptSchema });

/** Admin payments. */
export const adminPaymentSchema = orderSchema.extend({
  user: z.object({ id: z.string(), username: z.string() }),
  providerRef: z.string().nullable(),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

export const adminPaymentsQuery = listQuery.extend({
  status: orderStatusSchema.optional(),
  provider: paymentProviderSchema.optional(),
  from: isoDateTime().optional(),
  to: isoDateTime().optional(),
  userId: z.string().uuid().optional(),
});
export type AdminPaymentsQuery = z.infer<typeof adminPaymentsQuery>;

export const paymentTotalsSchema = z.object({
  /** Paid orders in the period (refunded excluded). */
  paidCount: z.number().int(),
  paidCents: z.number().int(),
  refundedCount: z.number().int(),
  refundedCents: z.number().int(),
  discountCents: z.number().int(),
  currency: currencySchema,
});
export type PaymentTotals = z.infer<typeof paymentTotalsSchema>;

export const adminPaymentsAnswer = z.object({
  data: z.array(adminPaymentSchema),
  total: z.number().int(),
  totals: paymentTotalsSchema,
});
export const adminPaymentAnswer = z.object({ data: adminPaymentSchema });
export const refundInput = z.strictObject({ reason: z.string().trim().max(500).optional() });
