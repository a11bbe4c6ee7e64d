import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  connectAndAuthenticate,
  newHwid,
  openSocket,
  type TestSocket,
  waitFor,
} from './realtime.test-helpers.ts';

/**
 * Security issue: 1,000 handshakes from one address were all accepted (and slowed everyone), and a
 * customer could try 1,000 hwids to watch. Behind one proxy (TRUST_PROXY=1) the tests speak from
 * several addresses through X-Forwarded-For.
 */
let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({
    env: { TRUST_PROXY: '1' },
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
    // Another address, and the machine itself, still get in.
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
