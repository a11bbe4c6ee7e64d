import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers (CSP, HSTS, nosniff, frame and referrer policies…) on every answer. The
 * middleware is built once here: the Fastify plugin (@fastify/helmet 13) builds it again for each
 * request, parsing the CSP every time: 5 % of the CPU of a cached API read (bench/http).
 */
export function addSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const applyHeaders = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
}
