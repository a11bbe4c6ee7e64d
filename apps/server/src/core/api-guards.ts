import type { FastifyInstance, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { ZodObject } from 'zod';
import { AppError } from './errors.ts';

/**
 * Checks every API request gets before its own validation, for all routes at once (today's and
 * tomorrow's): no NUL character anywhere (PostgreSQL cannot store one: it was a 500), no JSON
 * nested deeper than 64 levels, no query parameter the route does not declare (a mistyped admin
 * filter silently returned everything), and a wrong method answered 405 with `Allow` instead of 404.
 */
export function guardApiInput(api: FastifyInstance): void {
  api.addHook('preValidation', async (request) => {
    scanRequestInput(request);
    refuseUnknownQueryParameters(request);
  });
}

/** Deeper JSON is refused: no payload of the API needs more than a few levels. */
const MAX_JSON_DEPTH = 64;

function scanRequestInput(request: FastifyRequest): void {
  for (const part of [request.body, request.query, request.params]) scanInput(part);
}

/**
 * One walk over a parsed input, without recursion (10,000 nested arrays overflowed the stack: a
 * 500): refuses a NUL character in any string or key, and nesting deeper than `MAX_JSON_DEPTH`.
 */
function scanInput(root: unknown): void {
  const pending: [unknown, number][] = [[root, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw nulRefusal();
      continue;
    }
    if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    if (depth >= MAX_JSON_DEPTH) throw new AppError('JSON_TOO_DEEP');
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) throw nulRefusal();
      pending.push([item, depth + 1]);
    }
  }
}

const nulRefusal = () => new AppError('NUL_CHARACTER');

function refuseUnknownQueryParameters(request: FastifyRequest): void {
  const given = Object.keys((request.query as Record<string, unknown> | undefined) ?? {});
  if (given.length === 0) return;
  const schema = request.routeOptions.schema?.querystring as ZodObject | undefined;
  const declared = new Set(schema?.shape ? Object.keys(schema.shape) : []);
  const unknown = given.filter((name) => !declared.has(name));
  if (unknown.length === 0) return;
  throw new AppError('UNKNOWN_QUERY_PARAMETER', { details: { names: unknown } });
}

/**
 * Remembers every route of the instance so the not-found handler can tell "no such path" (404)
 * from "no such method on this path" (405 with the methods that exist).
 */
export function trackRouteMethods(api: FastifyInstance): (request: FastifyRequest) => HTTPMethod[] {
  const router = FindMyWay();
  api.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      router.on(method.toUpperCase() as HTTPMethod, route.url, () => {});
  });
  const methods: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
  return (request) => {
    const path = request.url.split('?')[0] ?? '/';
    return methods.filter((method) => router.find(method, path) !== null);
  };
}

/**
 * API answers carry tokens, secrets and personal data (a sign-in's token, a bot key, a user list):
 * no browser or proxy may keep them. Every API answer is `no-store` unless its route chose a cache
 * policy itself (the world map's private cache, signed downloads).
 */
export function keepApiAnswersPrivate(api: FastifyInstance): void {
  api.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });
}
