import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkPermissionAnswer, errorMessage } from '@bot/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, joinUrl, NETWORK_ERROR_MESSAGE } from './api-client.ts';
import { ApiError } from './api-error.ts';

/** A tiny real HTTP server: each test sets how it answers and reads what it received. */
let handler: (request: IncomingMessage, body: string, response: ServerResponse) => void;
let received: { method?: string; url?: string; authorization?: string; body: string }[] = [];
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.authorization,
      body,
    });
    handler(request, body, response);
  });
});
let baseUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function setup(token: string | null = null) {
  const toasts: string[] = [];
  const unauthorized: ApiError[] = [];
  const client = createApiClient({
    getBaseUrl: () => baseUrl,
    getToken: () => token,
    notifyError: (message) => toasts.push(message),
    onUnauthorized: (error) => unauthorized.push(error),
  });
  return { client, toasts, unauthorized };
}

beforeEach(() => {
  received = [];
  handler = (_request, _body, response) => json(response, 200, { ok: true });
});

describe('api client', () => {
  it('joins the runtime base URL and the path', () => {
    expect(joinUrl('/api', '/auth/login')).toBe('/api/auth/login');
    expect(joinUrl('/api/', 'me/info')).toBe('/api/me/info');
  });

  it('sends JSON with the Bearer token when one exists', async () => {
    const { client } = setup('secret-token');
    await client.post('/auth/check-permission', { permission: 'can_manageMap' });
    expect(received[0]).toEqual({
      method: 'POST',
      url: '/api/auth/check-permission',
      authorization: 'Bearer secret-token',
      body: '{"permission":"can_manageMap"}',
    });
  });

  it('sends no authorization header without a token, or when the call says so', async () => {
    await setup(null).client.get('/settings/public');
    await setup('stored').client.post('/auth/login', { username: 'a', password: 'b' }, { token: null });
    expect(received.map((entry) => entry.authorization)).toEqual([undefined, undefined]);
  });

  it('validates the answer with a contracts schema', async () => {
    handler = (_request, _body, response) => json(response, 200, { allowed: true });
    const { client } = setup('t');
    expect(await client.post('/auth/check-permission', {}, { schema: checkPermissionAnswer })).toEqual({
      allowed: true,
    });

    handler = (_request, _body, response) => json(response, 200, { allowed: 'yes' });
    const second = setup('t');
    await expect(
      second.client.post(
        '/auth/check-permission',
        {},
        { schema: checkPermissionAnswer, fallback: 'Vérification impossible.' },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_ANSWER', message: 'Vérification impossible.' });
    expect(second.toasts).toEqual(['Vérification impossible.']);
  });

  it("shows the server's error in a toast and throws it with its code", async () => {
    handler = (_request, _body, response) =>
      json(response, 409, { error: "Ce nom d'utilisateur est déjà pris.", code: 'USERNAME_TAKEN' });
    const { client, toasts } = setup();
    const error = await client.post('/auth/register', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'USERNAME_TAKEN',
      message: "Ce nom d'utilisateur est déjà pris.",
    });
    expect(toasts).toEqual(["Ce nom d'utilisateur est déjà pris."]);
  });

  it('words a code it knows from the contracts’ table, quoting its details, not from the server’s text', async () => {
    handler = (_request, _body, response) =>
      json(response, 409, { error: 'Role in use', code: 'ROLE_IN_USE', details: { memberCount: 3 } });
    const { client, toasts } = setup();
    const expected = errorMessage('ROLE_IN_USE', { memberCount: 3 });
    expect(expected).toBe(
      'Ce rôle est encore attribué à 3 utilisateurs. Retirez-le-leur avant de le supprimer.',
    );
    await expect(client.delete('/admin/roles/x')).rejects.toMatchObject({
      code: 'ROLE_IN_USE',
      message: expected,
    });
    // A code it does not know (a newer server) keeps the server's words.
    handler = (_request, _body, response) =>
      json(response, 409, { error: 'Refus inédit.', code: 'NEW_CODE' });
    await expect(client.delete('/admin/roles/x')).rejects.toMatchObject({ message: 'Refus inédit.' });
    expect(toasts).toEqual([expected, 'Refus inédit.']);
  });

  it('falls back to the French message of docs/specification.md §7 when the server gives none', async () => {
    handler = (_request, _body, response) => response.writeHead(502).end('<html>Bad gateway</html>');
    const { client, toasts } = setup();
    await expect(
      client.post('/auth/register', {}, { fallback: 'Un problème est survenu durant votre inscription.' }),
    ).rejects.toMatchObject({
      status: 502,
      message: 'Un problème est survenu durant votre inscription.',
    });
    expect(toasts).toEqual(['Un problème est survenu durant votre inscription.']);
  });

  it('leaves the toast to the caller when silent', async () => {
    handler = (_request, _body, response) =>
      json(response, 403, { error: 'Compte non activé.', code: 'ACCOUNT_NOT_ACTIVATED' });
    const { client, toasts } = setup();
    await expect(client.post('/auth/login', {}, { silent: true })).rejects.toMatchObject({
      code: 'ACCOUNT_NOT_ACTIVATED',
    });
    expect(toasts).toEqual([]);
  });

  it('ends the session on a 401 answer to a call that carried a token', async () => {
    handler = (_request, _body, response) =>
      json(response, 401, { error: 'Session expirée.', code: 'UNAUTHORIZED' });
    const { client, unauthorized, toasts } = setup('revoked');
    await expect(client.get('/me/info')).rejects.toMatchObject({ status: 401 });
    expect(unauthorized).toHaveLength(1);
    expect(unauthorized[0]?.message).toBe(errorMessage('UNAUTHORIZED'));
    expect(toasts).toEqual([]); // the session handler shows it once, after logging out
  });

  it('does not log out on a 401 without a token (wrong password)', async () => {
    handler = (_request, _body, response) =>
      json(response, 401, {
        error: "Nom d'utilisateur ou mot de passe incorrect.",
        code: 'INVALID_CREDENTIALS',
      });
    const { client, unauthorized, toasts } = setup(null);
    await expect(client.post('/auth/login', {})).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(unauthorized).toHaveLength(0);
    expect(toasts).toEqual(["Nom d'utilisateur ou mot de passe incorrect."]);
  });

  it('reports an unreachable server in French', async () => {
    const client = createApiClient({
      getBaseUrl: () => 'http://127.0.0.1:9/api',
      getToken: () => null,
      notifyError: () => {},
      onUnauthorized: () => {},
    });
    await expect(client.get('/me/info')).rejects.toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
  });
});
