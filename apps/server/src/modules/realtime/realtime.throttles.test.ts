import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiClient,
  PUBLIC_INSTALLATION_ENV,
  startTestServer,
  type TestServer,
} from '../../../test/harness.ts';
import {
  connectAndAuthenticate,
  newHwid,
  openSocket,
  type TestSocket,
  waitFor,
} from '../../../test/helpers/realtime.ts';
import { upgradeAnswer } from '../../../test/raw-http.ts';

/**
 * Security issue: 1,000 handshakes from one address were all accepted (and slowed everyone), and a
 * customer could try 1,000 hwids to watch. Behind one proxy (TRUST_PROXY=1) the tests speak from
 * several addresses through X-Forwarded-For.
 */
let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({
    // This machine is listed, as for the simulator: the limit counts the forwarded addresses.
    env: { TRUST_PROXY: '1', SOCKET_HANDSHAKE_ALLOWLIST: '127.0.0.1,::1' },
    rateLimits: { socketHandshake: { max: 5, windowMs: 60_000 }, watchRefusal: { max: 3, windowMs: 60_000 } },
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

async function handshake(forwardedFor?: string): Promise<'connected' | string> {
  const socket = openSocket(server, forwardedFor ? { forwardedFor } : {});
  sockets.push(socket);
  return Promise.race([
    waitFor(socket, 'connect').then(() => 'connected'),
    waitFor<Error>(socket, 'connect_error').then((error) => error.message),
  ]);
}

describe('socket throttles', () => {
  it('limits handshakes per source address before any authentication', async () => {
    const flood: string[] = [];
    for (let i = 0; i < 7; i++) flood.push(await handshake('198.51.100.20'));
    expect(flood.slice(0, 5)).toEqual(Array(5).fill('connected'));
    expect(flood.slice(5)).not.toContain('connected');
    // Another address, and the listed machine itself, still get in.
    expect(await handshake('203.0.113.50')).toBe('connected');
    expect(await handshake()).toBe('connected');
  });

  it('refuses, then cuts, a customer trying other people’s hwids', async () => {
    const customer = await server.createUser();
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const hwid = newHwid();
      const { socket, ack } = await connectAndAuthenticate(server, {
        type: 'client',
        token: customer.token,
        hwid,
      });
      sockets.push(socket);
      codes.push((ack as { code?: string }).code ?? 'ok');
      if (socket.connected) await waitFor(socket, 'disconnect');
    }
    expect(codes).toEqual(['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'RATE_LIMITED', 'RATE_LIMITED']);
  });
});

describe('no address exempt by default (issue 30)', () => {
  it('limits loopback handshakes too (a local proxy without TRUST_PROXY) and warns in the log', async () => {
    const lines: string[] = [];
    // Listening on every interface (as configured), every peer local, TRUST_PROXY unset.
    const proxied = await startTestServer({
      env: { ...PUBLIC_INSTALLATION_ENV, SOCKET_HANDSHAKE_ALLOWLIST: '', HOST: '0.0.0.0' },
      rateLimits: { socketHandshake: { max: 3, windowMs: 60_000 } },
      onLogLine: (line) => lines.push(line),
    });
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i++) {
        const socket = openSocket(proxied);
        sockets.push(socket);
        outcomes.push(
          await Promise.race([
            waitFor(socket, 'connect').then(() => 'connected'),
            waitFor<Error>(socket, 'connect_error').then((error) => error.message),
          ]),
        );
      }
      expect(outcomes.slice(0, 3)).toEqual(Array(3).fill('connected'));
      expect(outcomes[3]).not.toBe('connected');
      // What the refused upgrade answered: the one error shape, with Retry-After.
      const refused = await upgradeAnswer(proxied.url);
      expect(refused.head).toMatch(/^HTTP\/1\.1 429 /);
      expect(refused.head.toLowerCase()).toMatch(/retry-after: \d+/);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'RATE_LIMITED' });
      const call = apiClient(proxied);
      for (let i = 0; i < 20; i++) await call('GET', '/settings/public');
      await vi.waitFor(() =>
        expect(lines.some((line) => line.includes('TRUST_PROXY n’est pas défini'))).toBe(true),
      );
    } finally {
      await proxied.close();
    }
  });

  it('does not warn when TRUST_PROXY is set', async () => {
    const lines: string[] = [];
    const behindNginx = await startTestServer({
      env: { ...PUBLIC_INSTALLATION_ENV, TRUST_PROXY: '1', HOST: '0.0.0.0' },
      onLogLine: (line) => lines.push(line),
    });
    const call = apiClient(behindNginx);
    for (let i = 0; i < 21; i++) await call('GET', '/settings/public');
    await behindNginx.close();
    expect(lines.some((line) => line.includes('TRUST_PROXY n’est pas défini'))).toBe(false);
  });
});
