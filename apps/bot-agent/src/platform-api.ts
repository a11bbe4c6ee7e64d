import { type BotSessionAnswer, SOCKET_TIMEOUT_MS } from '@bot/contracts';
import { BotApiError } from './errors.ts';

type ErrorBody = { error?: string; code?: string };

/** POSTs JSON to the platform's API; answers the status and the body (empty when not JSON). */
async function post<T>(
  serverUrl: string,
  route: string,
  body: unknown,
): Promise<{ status: number; body: T & ErrorBody }> {
  const response = await fetch(`${serverUrl}/api${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(SOCKET_TIMEOUT_MS),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T & ErrorBody };
}

function refusal(status: number, body: ErrorBody): BotApiError {
  return new BotApiError(body.error ?? `HTTP ${status}`, body.code ?? 'HTTP_ERROR', status);
}

/** `POST /api/bot/sessions`: the session (token, whitelist, lease...), or the platform's refusal. */
export async function requestSession(
  serverUrl: string,
  input: Record<string, unknown>,
): Promise<BotSessionAnswer> {
  const { status, body } = await post<Partial<BotSessionAnswer>>(serverUrl, '/bot/sessions', input);
  if (status !== 201 || !body.token || !body.expiresAt) throw refusal(status, body);
  return body as BotSessionAnswer;
}

/**
 * `POST /api/bot/lease`: a fresh lease token for the session and when the session now ends (the
 * renewal extended it; a server of protocol 1.0 does not say), or the platform's refusal.
 */
export async function requestLease(
  serverUrl: string,
  input: { token: string; hwid: string },
): Promise<{ lease: string; expiresAt?: string }> {
  const { status, body } = await post<{ lease?: string; expiresAt?: string }>(serverUrl, '/bot/lease', input);
  if (status === 200 && body.lease) return { lease: body.lease, expiresAt: body.expiresAt };
  throw refusal(status, body);
}

/** `POST /api/bot/update-deferral`: the agent put the update off until then (the session proves who asks). */
export async function requestDeferral(
  serverUrl: string,
  input: { token: string; hwid: string; version: string; minutes: number },
): Promise<{ until: string }> {
  const { status, body } = await post<{ until?: string }>(serverUrl, '/bot/update-deferral', input);
  if (status === 200 && body.until) return { until: body.until };
  throw refusal(status, body);
}
