// The payments module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { paymentEvents, paymentWebhookCalls } from './payment-webhooks.table.ts';
export {
  prunePaymentEvents,
  pruneWebhookCalls,
  type WebhookHealth,
  webhookHealth,
} from './payment-webhooks.ts';
export { paymentsRoutes } from './payments.routes.ts';
export { createSandboxProvider } from './sandbox.provider.ts';
export { createStripeProvider } from './stripe.provider.ts';
