import type { FastifyInstance, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { ZodObject } from 'zod';
import { AppError } from './errors.ts';

/**
 * Checks every API request gets before its own validation, for all routes at once (today's and
 * tomorrow's): no NUL character anywhere (PostgreSQL cannot store one: it was a 500), no query
 * parameter the route does not declare (a mistyped admin filter silently returned everything),
 * and a wrong method answered 405 with `Allow` instead of 404.
 */
export function guardApiInput(api: FastifyInstance): void {
  api.addHook('preValidation', async (request) => {
    refuseNulCharacters(request);
    refuseUnknownQueryParameters(request);
  });
}

function refuseNulCharacters(request: FastifyRequest): void {
  for (const part of [request.body, request.query, request.params]) {
    if (containsNul(part))
      throw new AppError('VALIDATION_ERROR', { message: 'Le caractère nul (U+0000) n’est pas accepté.' });
  }
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item));
  }
  return false;
}

function refuseUnknownQueryParameters(request: FastifyRequest): void {
  const given = Object.keys((request.query as Record<string, unknown> | undefined) ?? {});
  if (given.length === 0) return;
  const schema = request.routeOptions.schema?.querystring as ZodObject | undefined;
  const declared = new Set(schema?.shape ? Object.keys(schema.shape) : []);
  const unknown = given.filter((name) => !declared.has(name));
  if (unknown.length === 0) return;
  throw new AppError('VALIDATION_ERROR', {
    message: `Paramètre de requête inconnu : ${unknown.join(', ')}.`,
    details: unknown.map((name) => ({ path: name, message: 'paramètre inconnu' })),
  });
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

/** Answers to a signed-in request are personal: no browser or proxy may keep them. */
export function keepSignedInAnswersPrivate(api: FastifyInstance): void {
  api.addHook('onSend', async (request, reply) => {
    if (request.headers.authorization && !reply.hasHeader('cache-control'))
      reply.header('Cache-Control', 'no-store');
  });
}
