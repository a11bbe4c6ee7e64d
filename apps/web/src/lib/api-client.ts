import type { z } from 'zod';
import { ApiError } from './api-error.ts';
import { codeOf, detailsOf, messageOf } from './error-answer.ts';

export interface RequestOptions<T> {
  /** JSON, or a Blob sent as `application/octet-stream`. */
  body?: unknown;
  /** Validates the answer; a mismatch is reported with the fallback message. */
  schema?: z.ZodType<T>;
  /** French message shown when the server gives none (docs/specification.md §7). */
  fallback?: string;
  /** The caller shows the error itself: no toast (the 401 logout still happens). */
  silent?: boolean;
  signal?: AbortSignal;
  /** Sends this token instead of the stored one (logout sends the token it just cleared). */
  token?: string | null;
}

export interface ApiClientDeps {
  getBaseUrl: () => string | Promise<string>;
  getToken: () => string | null | undefined;
  /** A call that carried a token was answered 401: the session is over. */
  onUnauthorized: (error: ApiError) => void;
  notifyError: (message: string) => void;
  fetchImpl?: typeof fetch;
}

const GENERIC_FALLBACK = 'Une erreur inconnue est survenue.';
export const NETWORK_ERROR_MESSAGE = 'Impossible de joindre le serveur. Vérifiez votre connexion.';

/** The one HTTP client of the app: base URL from runtime config, Bearer token, French errors. */
export function createApiClient(deps: ApiClientDeps) {
  const fetchImpl = deps.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function request<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions<T> = {},
  ): Promise<T> {
    const token = options.token !== undefined ? options.token : deps.getToken();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    // A Blob (a slice of a file being uploaded) goes as raw bytes, anything else as JSON.
    const isBytes = options.body instanceof Blob;
    if (options.body !== undefined)
      headers['content-type'] = isBytes ? 'application/octet-stream' : 'application/json';
    const fallback = options.fallback ?? GENERIC_FALLBACK;

    let response: Response;
    try {
      response = await fetchImpl(joinUrl(await deps.getBaseUrl(), path), {
        method,
        headers,
        body:
          options.body === undefined
            ? undefined
            : isBytes
              ? (options.body as Blob)
              : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      return fail(new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE), options);
    }

    const payload = await readJson(response);
    if (!response.ok) {
      const error = new ApiError(
        response.status,
        codeOf(payload),
        messageOf(payload) ?? fallback,
        readField(payload),
      );
      if (response.status === 401 && token) {
        deps.onUnauthorized(error);
        throw error;
      }
      return fail(error, options);
    }
    if (options.schema) {
      const parsed = options.schema.safeParse(payload);
      if (!parsed.success) return fail(new ApiError(response.status, 'INVALID_ANSWER', fallback), options);
      return parsed.data;
    }
    return payload as T;
  }

  function fail(error: ApiError, options: RequestOptions<unknown>): never {
    if (!options.silent) deps.notifyError(error.message);
    throw error;
  }

  return {
    request,
    get: <T>(path: string, options?: RequestOptions<T>) => request<T>('GET', path, options),
    post: <T>(path: string, body?: unknown, options?: RequestOptions<T>) =>
      request<T>('POST', path, { ...options, body: body ?? {} }),
    put: <T>(path: string, body?: unknown, options?: RequestOptions<T>) =>
      request<T>('PUT', path, { ...options, body: body ?? {} }),
    delete: <T>(path: string, options?: RequestOptions<T>) => request<T>('DELETE', path, options),
  };
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `details.field` of an error answer: the form field the server's refusal concerns. */
function readField(payload: unknown): string | undefined {
  const details = detailsOf(payload);
  if (!details || typeof details !== 'object' || !('field' in details)) return undefined;
  const { field } = details as { field: unknown };
  return typeof field === 'string' ? field : undefined;
}
