import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './harness.ts';

/** Security round 3 (issue 30): hostile HTTP that used to answer 500 or Fastify's own shape. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** Sends raw bytes on a new connection and answers everything the server wrote before closing. */
function rawExchange(request: string): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
  });
}

describe('hostile HTTP (issue 30)', () => {
  it('refuses 10,000 nested arrays with a 400 {error, code} on anonymous and signed-in routes', async () => {
    const call = apiClient(server);
    const user = await server.createUser();
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const deepObject = `{"username":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)},"password":"x"}`;
    const answers = [
      await call('POST', '/auth/login', deep),
      await call('POST', '/auth/forgot-password', deepObject),
      await call('PUT', '/me/discord', deep, user.token),
    ];
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 400,
        body: {
          code: 'JSON_TOO_DEEP',
          error: 'Le corps de la requête est trop imbriqué (64 niveaux au plus).',
        },
      });
    }
    // 64 levels are still read (and refused by the schema, not by the depth guard).
    const shallow = await call('POST', '/auth/login', `${'['.repeat(64)}${']'.repeat(64)}`);
    expect(shallow).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('answers a header too large (431) and a malformed header line (400) as {error, code}', async () => {
    const tooLarge = await rawExchange(
      `GET /api/settings/public HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(tooLarge.status).toBe(431);
    expect(JSON.parse(tooLarge.body)).toEqual({
      error: 'Les en-têtes de la requête sont trop volumineux.',
      code: 'HEADERS_TOO_LARGE',
    });
    const malformed = await rawExchange(
      'GET /api/settings/public HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n',
    );
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toEqual({
      error: 'La requête HTTP est mal formée.',
      code: 'MALFORMED_REQUEST',
    });
    expect(malformed.headers.toLowerCase()).toContain('content-type: application/json');
  });

  it('answers plain HTTP and a refused WebSocket upgrade on the socket path as {error, code}', async () => {
    const polling = await apiClient({ api: server.url })('GET', '/socket.io/?EIO=4&transport=polling');
    expect(polling).toMatchObject({ status: 400, body: { code: 'WEBSOCKET_REQUIRED' } });
    const foreign = await rawExchange(
      'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://ailleurs.example\r\n' +
        'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('marks the sign-in answer (a token) and every other API answer no-store', async () => {
    const call = apiClient(server);
    const user = await server.createUser();
    const login = await call('POST', '/auth/login', {
      username: user.user.username,
      password: user.password,
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    for (const answer of [
      await call('POST', '/auth/login', { username: user.user.username, password: 'faux-mot-de-passe' }),
      await call('POST', '/auth/forgot-password', { email: user.user.email }),
      await call('GET', '/settings/public'),
    ]) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });
});
