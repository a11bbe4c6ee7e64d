import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from './errors.ts';

function isSameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /api/metrics` in Prometheus text format, for operators only: it answers only with
 * `Authorization: Bearer <METRICS_TOKEN>`, and does not exist when METRICS_TOKEN is unset.
 */
export const metricsRoutes: FastifyPluginAsync = async (app) => {
  const { config, metrics } = app.ctx;
  const token = config.metricsToken;
  if (!token) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
    if (!isSameSecret(given, token)) throw new AppError('UNAUTHORIZED');
    reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store');
    return metrics.registry.metrics();
  });
};
