import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A route guard: an `onRequest` hook, with the error statuses it may answer (for the OpenAPI document). */
export type Guard = ((request: FastifyRequest) => Promise<void>) & { readonly answers?: readonly number[] };

/** Every refusal: a French message and a machine code (`ERRORS` of the contracts). */
const errorAnswer = z.looseObject({
  error: z.string().describe('Message en français'),
  code: z.string().describe('Code machine (ERRORS)'),
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Entrée invalide (VALIDATION_ERROR, INVALID_JSON…)',
  401: 'Session absente ou expirée (UNAUTHORIZED)',
  403: 'Permission manquante (FORBIDDEN) ou action refusée',
  404: 'Introuvable (NOT_FOUND)',
  409: 'Conflit avec l’état actuel',
  413: 'Corps trop grand (PAYLOAD_TOO_LARGE)',
  415: 'Corps non JSON (UNSUPPORTED_MEDIA_TYPE)',
  422: 'Requête refusée en l’état',
  429: 'Trop de tentatives (RATE_LIMITED, avec Retry-After)',
  500: 'Erreur interne (INTERNAL) : un défaut du serveur, la modification n’a pas eu lieu',
  503: 'Service momentanément indisponible (SERVICE_UNAVAILABLE, MAINTENANCE)',
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Statuses the handler itself may refuse with, beyond the ones every route documents. */
    errors?: number[];
  }
}

type DocumentedRoute = Pick<RouteOptions, 'schema' | 'method' | 'url' | 'onRequest' | 'config'>;

/**
 * The OpenAPI document tells what each operation may answer: every route under `api` documents
 * 400 (input), 500 (a defect: the use case rolled back) and 503 (database outage, maintenance), 404 when it names a resource, 413/415 when
 * it takes a body, its guards' 401/403 with the bearer scheme, and the statuses its handler declares
 * in `config.errors`. The fuzz suite checks every answer against this.
 */
export function documentAnswers(api: FastifyInstance): void {
  // The document must stay true: an answer it does not list is logged (tests fail on it).
  api.addHook('onResponse', async (request, reply) => {
    const schema = request.routeOptions.schema as { response?: object; hide?: boolean } | undefined;
    if (!schema?.response || schema.hide || reply.statusCode in schema.response) return;
    request.log.warn(
      { undocumentedAnswer: `${request.method} ${request.routeOptions.url} ${reply.statusCode}` },
      'réponse absente du document OpenAPI',
    );
  });
  api.addHook('onRoute', (route) => {
    const statuses = [400, 500, 503, ...(route.config?.errors ?? [])];
    if (route.url.includes(':')) statuses.push(404);
    if (route.schema?.body) statuses.push(413, 415);
    const guards = [route.onRequest ?? []].flat() as Guard[];
    for (const guard of guards) if (guard.answers) statuses.push(...guard.answers);
    documentErrors(
      route,
      statuses,
      guards.some((guard) => guard.answers),
    );
  });
}

/** A guard for every route of a plugin (`app.addHook('onRequest', guard)`), documented on each. */
export function guardRoutes(app: FastifyInstance, guard: Guard): void {
  app.addHook('onRequest', guard);
  app.addHook('onRoute', (route) => documentErrors(route, [...(guard.answers ?? [])], true));
}

function documentErrors(route: DocumentedRoute, statuses: number[], isSignedIn: boolean): void {
  route.schema ??= {};
  route.schema.response ??= {};
  const response = route.schema.response as Record<number, unknown>;
  for (const status of statuses) {
    response[status] ??= errorAnswer.describe(ERROR_DESCRIPTIONS[status] ?? 'Refus');
  }
  if (isSignedIn) (route.schema as { security?: unknown }).security = [{ bearerAuth: [] }];
}

/**
 * The document's transform: the zod schemas as JSON schemas, and a 204 documented as what it is,
 * an answer without a body (`z.null()` came out as a JSON body holding `null`).
 */
export const documentTransform: typeof jsonSchemaTransform = (input) => {
  const transformed = jsonSchemaTransform(input);
  const response = (transformed.schema as { response?: Record<string, unknown> } | undefined)?.response;
  if (response?.['204']) response['204'] = { type: 'null', description: 'Aucun contenu' };
  return transformed;
};
