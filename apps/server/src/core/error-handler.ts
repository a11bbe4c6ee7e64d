import { STATUS_CODES as HTTP_REASONS } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorCode, errorMessage, type ValidationIssue } from '@bot/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  type ZodFastifySchemaValidationError,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { isDatabaseUnavailable, isDiskFull } from '../db/errors.ts';
import { isAppError } from './errors.ts';
import type { Metrics } from './metrics.ts';

/** A database outage is answered 503 with this Retry-After: the pool reconnects on the next query. */
const DATABASE_RETRY_AFTER_SECONDS = 5;
/** A full disk takes a person to free space: ask again in a minute. */
const DISK_FULL_RETRY_AFTER_SECONDS = 60;

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_ERROR',
  FST_ERR_VALIDATION: 'VALIDATION_ERROR',
};

/** Errors the router raises before any route runs (Fastify's `frameworkErrors`), in French. */
const ROUTER_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'Adresse invalide : un caractère encodé est incorrect.',
  FST_ERR_MAX_PARAM_LENGTH: 'Adresse invalide : un identifiant dépasse 100 caractères.',
};

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

type ErrorBody = { error: string; code: ErrorCode; details?: unknown };

/**
 * The one error handler: every error becomes `{error, code}` with a French message. Expected
 * errors keep their message; 5xx are logged and answered with a generic text, never internals.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body, retryAfter } = answerFor(error, request);
    request.server.ctx.metrics.errors.inc({ code: body.code });
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    readTheRestBeforeAnswering(request, reply);
    return reply.status(status).send(body);
  });
}

/**
 * A refusal given before the body was read (413, 415, bad JSON): Fastify asks to close the
 * connection, and a client still sending its 5 MB met a closed socket (EPIPE, reset) instead of the
 * answer, one time in two. Without the close, Node reads and drops the rest of the body (bounded by
 * the 30 s request timeout) and the client reads its answer (docs/security.md, "HTTP hardening").
 */
function readTheRestBeforeAnswering(request: FastifyRequest, reply: FastifyReply): void {
  if (!request.raw.complete && reply.getHeader('connection') === 'close') reply.removeHeader('connection');
}

/**
 * Fastify's `frameworkErrors`: a malformed or oversized URL is refused by the router itself, with
 * Fastify's own body unless we answer. Answered here in the one `{error, code}` shape.
 */
export function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message = error.code ? ROUTER_ERROR_MESSAGES[error.code] : undefined;
  if (message) {
    request.server.ctx.metrics.errors.inc({ code: 'VALIDATION_ERROR' });
    void reply.status(400).send({ error: message, code: 'VALIDATION_ERROR' });
    return;
  }
  const { status, body } = answerFor(error, request);
  void reply.status(status).send(body);
}

/**
 * A refused field by its path (`lines.3.level`); an unknown key by its own path (`mood`), where zod
 * gives its object's, empty at the top (docs/protocol.md, "Every refusal").
 */
function namedIssues(issue: ZodFastifySchemaValidationError): ValidationIssue[] {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const message = issue.message ?? '';
  const { keys } = issue.params as { keys?: unknown };
  if (issue.keyword !== 'unrecognized_keys' || !Array.isArray(keys)) return [{ path, message }];
  return keys.map((key) => ({ path: path ? `${path}.${String(key)}` : String(key), message }));
}

/** The status, `{error, code}` body and Retry-After (seconds) for an error. */
function answerFor(
  error: FastifyError,
  request: FastifyRequest,
): { status: number; body: ErrorBody; retryAfter?: number } {
  if (isAppError(error)) {
    // A 500 thrown on purpose is a defect the code caught itself (a row just written is missing):
    // logged with its stack, which names the place, like any other defect.
    if (error.status === 500) request.log.error({ err: error }, 'erreur interne');
    const body: ErrorBody = { error: error.message, code: error.code };
    if (error.details !== undefined) body.details = error.details;
    return { status: error.status, body, retryAfter: error.retryAfter };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.flatMap(namedIssues);
    return {
      status: 400,
      body: { error: errorMessage('VALIDATION_ERROR', issues), code: 'VALIDATION_ERROR', details: issues },
    };
  }
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  if (status < 500) {
    const code = (error.code && FASTIFY_CODES[error.code]) || STATUS_CODES[status] || 'VALIDATION_ERROR';
    return { status, body: { error: errorMessage(code), code } };
  }
  if (isDiskFull(error)) {
    request.log.error({ err: error }, 'disque plein : écriture refusée');
    const { config } = request.server.ctx;
    const disk = config.databaseUrl ? 'du serveur PostgreSQL' : `du dossier de données (${config.dataDir})`;
    return {
      status: 503,
      body: { error: errorMessage('DISK_FULL', { disk }), code: 'DISK_FULL', details: { disk } },
      retryAfter: DISK_FULL_RETRY_AFTER_SECONDS,
    };
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'base de données indisponible');
    return {
      status: 503,
      body: { error: errorMessage('SERVICE_UNAVAILABLE'), code: 'SERVICE_UNAVAILABLE' },
      retryAfter: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  request.log.error({ err: error }, 'erreur non gérée');
  return { status: 500, body: { error: errorMessage('INTERNAL'), code: 'INTERNAL' } };
}

/** Node's parser errors before any request exists (Fastify's `clientErrorHandler`), by status. */
const CLIENT_ERRORS: Record<string, { status: number; code: ErrorCode }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'REQUEST_TIMEOUT' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'HEADERS_TOO_LARGE' },
};

/**
 * Errors raised while Node parses the request (headers too large, a malformed header line, a
 * request too slow to arrive), before routing: Fastify's default answers them in its own shape.
 * Answered here as `{error, code}` too, written on the socket (there is no request or reply), which
 * then closes: the connection's state is unknown.
 */
export function answerClientError(
  ctx: { metrics: Metrics; log: Logger },
  error: Error & { code?: string },
  socket: Duplex,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code } = CLIENT_ERRORS[error.code ?? ''] ?? {
    status: 400,
    code: 'MALFORMED_REQUEST' as const,
  };
  ctx.metrics.errors.inc({ code });
  ctx.log.debug({ err: error }, 'requête HTTP refusée avant routage');
  writeRawRefusal(socket, status, code);
  socket.destroy(error);
}

/**
 * A refusal written straight on a connection that has no Fastify reply (a parser error, a WebSocket
 * upgrade refused before Socket.IO takes it), in the one `{error, code}` shape; the caller closes it.
 */
export function writeRawRefusal(
  socket: Duplex,
  status: number,
  code: ErrorCode,
  headers: Record<string, string> = {},
): void {
  if (!socket.writable) return;
  const body = JSON.stringify({ error: errorMessage(code), code });
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(
    `HTTP/1.1 ${status} ${HTTP_REASONS[status]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n${extra.join('')}Connection: close\r\n\r\n` +
      body,
  );
}
