import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './harness.ts';

const run = promisify(execFile);
let server: TestServer;
let call: ReturnType<typeof apiClient>;
beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
});
afterAll(() => server.close());

const publicCalls: [string, string][] = [
  ['POST', '/auth/login'],
  ['POST', '/auth/register'],
  ['POST', '/auth/activate'],
  ['POST', '/auth/resend-confirmation'],
  ['POST', '/auth/forgot-password'],
  ['POST', '/auth/reset-password'],
];

describe('bad input never yields a 5xx', () => {
  const badBodies: [string, string | unknown, number][] = [
    ['invalid JSON', '{"username": ', 400],
    ['an array', [], 400],
    ['null', 'null', 400],
    ['wrong types', { username: 42, password: true, email: [], token: {}, referral: 7 }, 400],
    ['unknown fields', { username: 'a', password: 'b', email: 'c@d.fr', token: 't', admin: true }, 400],
    ['an empty object', {}, 400],
  ];
  for (const [method, route] of publicCalls) {
    it.each(badBodies)(`${method} ${route} with %s`, async (_label, body, status) => {
      const answer = await call<{ error: string; code: string }>(method, route, body);
      expect(answer.status).toBe(status);
      expect(answer.body.code).toMatch(/^[A-Z_]+$/);
      expect(typeof answer.body.error).toBe('string');
    });
  }

  it('answers 413 for an oversized body', async () => {
    const answer = await call('POST', '/auth/register', {
      username: 'a',
      password: 'x'.repeat(200_000),
      email: 'a@b.fr',
    });
    expect(answer).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('answers every client sending 5 MB its 413, never a broken pipe', async () => {
    // The server used to answer and close before reading the body: one client in two, still
    // writing, saw EPIPE or a reset instead of the answer (operations round 3). The clients run in
    // a process of their own, as real ones do (in this process the server never closes first).
    const clients = `
      const body = JSON.stringify({ username: 'a', password: 'x'.repeat(5 * 1024 * 1024), email: 'a@b.fr' });
      const bytes = new TextEncoder().encode(body);
      // Half announce their length, half stream chunks (no Content-Length: read up to the limit).
      const streamed = () => new ReadableStream({ start(controller) {
        for (let at = 0; at < bytes.length; at += 65536) controller.enqueue(bytes.subarray(at, at + 65536));
        controller.close();
      } });
      const outcomes = await Promise.all(Array.from({ length: 20 }, async (_, index) => {
        try {
          const response = await fetch(process.argv[1], { method: 'POST', headers: { 'content-type': 'application/json' },
            ...(index % 2 === 0 ? { body } : { body: streamed(), duplex: 'half' }) });
          return response.status + ' ' + (await response.json()).code;
        } catch (error) { return String(error.cause?.code ?? error); }
      }));
      console.log(JSON.stringify(outcomes));`;
    for (const route of ['/auth/register', '/bot/sessions']) {
      const { stdout } = await run(process.execPath, [
        '--input-type=module',
        '-e',
        clients,
        `${server.api}${route}`,
      ]);
      expect(JSON.parse(stdout)).toEqual(Array.from({ length: 20 }, () => '413 PAYLOAD_TOO_LARGE'));
    }
  });

  it('answers 415 for a body that is not JSON', async () => {
    const answer = await call('POST', '/auth/login', 'username=a&password=b', undefined, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers a French validation message naming the field', async () => {
    const answer = await call<{ error: string }>('POST', '/auth/register', {
      username: 'ab',
      password: 'x',
      email: 'pas-un-email',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/invalides/);
  });

  it('refuses to sort an admin list on an inherited property name', async () => {
    const { token } = await server.createUser({ isAdministrator: true });
    for (const sort of ['constructor', '-toString', 'valueOf', 'nope']) {
      const answer = await call('GET', `/admin/users?sort=${sort}`, undefined, token);
      expect(answer, sort).toMatchObject({ status: 400, body: { code: 'SORT_UNKNOWN' } });
    }
  });

  it('answers JSON 404 for an unknown API route', async () => {
    expect(await call('GET', '/nope')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});

describe('security headers and CORS', () => {
  it("sends the API's security headers and no CORS grant to a foreign origin", async () => {
    const answer = await call('GET', '/healthz', undefined, undefined, { origin: 'https://evil.example' });
    expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("sends the API's security headers on errors too", async () => {
    const answer = await call('GET', '/me/info');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
  });

  it("sends helmet's document headers with the app's policy on pages", async () => {
    for (const page of ['/api/docs/', '/login']) {
      const answer = await fetch(`${server.url}${page}`);
      expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    }
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const response = await fetch(`${server.url}/api/docs/json`);
    const document = (await response.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/me/info', '/api/auth/check-permission']),
    );
  });
});
