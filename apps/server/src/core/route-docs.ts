import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * A route guard: an `onRequest` hook, with the error statuses it may answer and the token it asks
 * for (a scheme of `SECURITY_SCHEMES`, the web session's by default), for the OpenAPI document.
 */
export type Guard = ((request: FastifyRequest) => Promise<void>) & {
  readonly answers?: readonly number[];
  readonly scheme?: SecurityScheme;
};

/**
 * Every refusal: a French message, a machine code (`ERRORS` of the contracts, docs/protocol.md's
 * table) and, for some codes, what the message quotes as data (`details`).
 */
const errorAnswer = z.looseObject({
  error: z.string().describe('Message en français'),
  code: z.string().describe('Code machine (ERRORS ; docs/protocol.md, « Codes d’erreur »)'),
  details: z
    .unknown()
    .optional()
    .describe(
      'Selon le code, ce que le message cite, en données : VALIDATION_ERROR les champs refusés [{path, message}], BOT_VERSION_OUTDATED {minBotVersion, pageUrl}, HWID_CHANGE_LIMIT {nextResetAt…} (docs/protocol.md)',
    ),
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

/** The tokens the document's operations declare: a web session's, and a bot session's (docs/protocol.md). */
export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'Jeton de session web (POST /api/auth/login)' },
  botSession: {
    type: 'http',
    scheme: 'bearer',
    description: 'Jeton de session de bot (token de POST /api/bot/sessions) : docs/protocol.md',
  },
} as const;
type SecurityScheme = keyof typeof SECURITY_SCHEMES;

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
      guards.find((guard) => guard.answers),
    );
  });
}

/** A guard for every route of a plugin (`app.addHook('onRequest', guard)`), documented on each. */
export function guardRoutes(app: FastifyInstance, guard: Guard): void {
  app.addHook('onRequest', guard);
  app.addHook('onRoute', (route) => documentErrors(route, [...(guard.answers ?? [])], guard));
}

function documentErrors(route: DocumentedRoute, statuses: number[], guard: Guard | undefined): void {
  route.schema ??= {};
  route.schema.response ??= {};
  const response = route.schema.response as Record<number, unknown>;
  for (const status of statuses) {
    response[status] ??= errorAnswer.describe(ERROR_DESCRIPTIONS[status] ?? 'Refus');
  }
  if (guard) (route.schema as { security?: unknown }).security = [{ [guard.scheme ?? 'bearerAuth']: [] }];
}

/** Examples of one operation: its body, and answers by status (validated by the document's test). */
export interface OperationExamples {
  body?: unknown;
  responses?: Readonly<Record<number, unknown>>;
}

/** What the document says of each operation, by `METHOD url` as Fastify names the route. */
export interface OperationTexts {
  summaries: Readonly<Record<string, string>>;
  examples: Readonly<Record<string, OperationExamples>>;
}

interface DocumentedSchema {
  hide?: boolean;
  operationId?: string;
  summary?: string;
  body?: object;
  response?: Record<string, object>;
}

/** `GET /api/admin/users/:id/hwid` → `getAdminUsersByIdHwid`: stable, unique, readable in generated clients. */
function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .flatMap((segment) => {
      if (segment === '*') return ['all'];
      if (segment.startsWith(':')) return ['by', segment.slice(1)];
      return segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

function addExamples(schema: DocumentedSchema, examples: OperationExamples | undefined): void {
  if (examples?.body !== undefined && schema.body)
    schema.body = { ...schema.body, examples: [examples.body] };
  for (const [status, example] of Object.entries(examples?.responses ?? {})) {
    const answer = schema.response?.[status];
    if (answer && schema.response) schema.response[status] = { ...answer, examples: [example] };
  }
}

/**
 * The document's transform: the zod schemas as JSON schemas; each operation's `operationId`, French
 * summary and examples; and a 204 documented as what it is, an answer without a body (`z.null()`
 * came out as a JSON body holding `null`).
 */
export function documentTransform(texts: OperationTexts): typeof jsonSchemaTransform {
  return (input) => {
    const transformed = jsonSchemaTransform(input);
    // A route without a schema (the web app's) is still an operation of the document.
    const schema = (transformed.schema ?? {}) as DocumentedSchema;
    if (schema.hide) return transformed;
    const method = [input.route.method].flat()[0] as string;
    const key = `${method} ${input.url}`;
    schema.operationId ??= operationIdOf(method, input.url);
    schema.summary ??= texts.summaries[key];
    addExamples(schema, texts.examples[key]);
    if (schema.response?.['204']) schema.response['204'] = { type: 'null', description: 'Aucun contenu' };
    return { ...transformed, schema };
  };
}
