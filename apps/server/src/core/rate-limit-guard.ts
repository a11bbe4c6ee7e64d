import type { FastifyRequest } from 'fastify';
import type { RateLimitName } from './rate-limiter.ts';

/** A preHandler counting one hit per source address against a configured rule. */
export function limitPerIp(rule: RateLimitName): (request: FastifyRequest) => Promise<void> {
  return (request) => request.server.ctx.limiter.hit(rule, request.ip);
}
