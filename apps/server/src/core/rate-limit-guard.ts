import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.ts';

/** A preHandler counting one hit per IP against a configured rule. */
export function limitPerIp(rule: keyof AppConfig['rateLimits']): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const { ctx } = request.server;
    ctx.limiter.hit(`${rule}:ip:${request.ip}`, ctx.config.rateLimits[rule]);
  };
}
