import { orderAnswer, sandboxActionParams } from '@bot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import Stripe from 'stripe';
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { requireSession, sessionOf } from '../../core/guards.ts';
import { recordWebhookCall } from './payment-webhooks.ts';
import { actOnSandboxCheckout, handleStripeEvent } from './payments.service.ts';

/** Stripe's signature timestamp may be this old at most (seconds). */
const STRIPE_WEBHOOK_TOLERANCE_S = 300;

export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tags = ['payments'];

  app.post(
    '/payments/sandbox/:orderId/:action',
    {
      config: { errors: [409] },
      onRequest: requireSession,
      schema: { tags, params: sandboxActionParams, response: { 200: orderAnswer } },
    },
    async (request) => ({
      data: await actOnSandboxCheckout(ctx, { userId: sessionOf(request).userId, ...request.params }),
    }),
  );

  await app.register(stripeWebhookRoute);
};

/**
 * Own plugin: the JSON parser is replaced by a raw one for this route only, since the signature
 * covers the exact bytes Stripe sent.
 */
const stripeWebhookRoute: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  const verifier = new Stripe(ctx.config.stripe?.secretKey ?? 'sk_unused');
  // Each call's outcome, for the staff alert "payment webhooks failing" (decision 903): one row per
  // call, refused ones included, so not part of a use case's transaction (decision 009, "Writes
  // around a use case's transaction").
  app.addHook('onResponse', async (_request, reply) => {
    if (ctx.config.stripe) await recordWebhookCall(ctx, { provider: 'stripe', status: reply.statusCode });
  });

  app.post(
    '/payments/stripe/webhook',
    {
      config: { errors: [404] },
      // Stripe events are a few KB; leave room for large sessions, still bounded.
      bodyLimit: 1024 * 1024,
      schema: {
        tags: ['payments'],
        response: { 200: z.object({ received: z.literal(true), outcome: z.string() }) },
      },
    },
    async (request) => {
      const keys = ctx.config.stripe;
      if (!keys) throw new AppError('NOT_FOUND');
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body))
        throw new AppError('WEBHOOK_SIGNATURE_INVALID');
      let event: Stripe.Event;
      try {
        event = verifier.webhooks.constructEvent(
          request.body,
          signature,
          keys.webhookSecret,
          STRIPE_WEBHOOK_TOLERANCE_S,
        );
      } catch {
        throw new AppError('WEBHOOK_SIGNATURE_INVALID');
      }
      // Stripe's library refuses only old signatures: a timestamp from the future is as suspect.
      if (signedAt(signature) - Date.now() / 1000 > STRIPE_WEBHOOK_TOLERANCE_S)
        throw new AppError('WEBHOOK_SIGNATURE_INVALID');
      const { outcome } = await handleStripeEvent(ctx, event);
      return { received: true as const, outcome };
    },
  );
};

/** The `t=` timestamp (seconds) of a Stripe-Signature header. */
function signedAt(signature: string): number {
  return Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1] ?? Number.NaN);
}
