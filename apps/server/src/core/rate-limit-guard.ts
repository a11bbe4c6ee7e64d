import type { FastifyRequest } from 'fastify';
import { rateLimitAddress } from './client-address.ts';
import type { RateLimitName } from './rate-limiter.ts';

/** A preHandler counting one hit per source address (an IPv6 one by its /64) against a configured rule. */
export function limitPerIp(rule: RateLimitName): (request: FastifyRequest) => Promise<void> {
  return (request) => request.server.ctx.limiter.hit(rule, rateLimitAddress(request.ip));
}
