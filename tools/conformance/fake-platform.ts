import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEY_SET_PATH, KEY_SET_TYPE, LEASE_TYPE } from '@bot/contracts';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { Server as SocketServer } from 'socket.io';

/**
 * The security issue's fake platform (a hosts entry, a rogue Wi-Fi; apps/server/test/attacks/
 * fake-platform.test.ts): a loopback HTTP + Socket.IO server answering in the platform's name. It
 * signs its key set with a root of its own and its leases with a key only that set names, so an
 * agent pinning the genuine root must refuse the lease, and never authenticate nor report here.
 */
export async function startFakePlatform() {
  const root = await edKey();
  const leaseKey = await edKey();
  const now = Math.floor(Date.now() / 1000);
  const tenYears = 10 * 365 * 86_400;
  const keySet = await new SignJWT({
    version: 1_000_000,
    issuedAt: now,
    expiresAt: now + tenYears,
    keys: [{ ...leaseKey.jwk, purpose: 'lease', expiresAt: now + tenYears }],
  })
    .setProtectedHeader({ alg: 'EdDSA', kid: root.kid, typ: KEY_SET_TYPE })
    .sign(root.privateKey);
  const leaseFor = (hwid: string) =>
    new SignJWT({
      sub: 'anyone',
      hwid: createHash('sha256').update(hwid).digest('hex'),
      packages: [],
      entitlements: ['can_useGathering', 'can_useTreasure'],
      accounts: [],
      grace: tenYears,
      minVersion: '0.0.0',
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: leaseKey.kid, typ: LEASE_TYPE })
      .setIssuedAt(now)
      .setExpirationTime(now + tenYears)
      .sign(leaseKey.privateKey);

  /** What the agent asked over HTTP, and what it did on the socket. */
  const asked: string[] = [];
  const socketEvents: string[] = [];
  const http = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      const hwid = String((JSON.parse(body || '{}') as { hwid?: unknown }).hwid ?? '');
      const answer =
        request.url === KEY_SET_PATH
          ? { keySet, revocations: [] }
          : request.url === '/api/bot/sessions'
            ? {
                hwid,
                token: 'fake-session',
                expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
                whitelist: ['victime'],
                update: null,
                lease: await leaseFor(hwid),
              }
            : request.url === '/api/bot/lease'
              ? { lease: await leaseFor(hwid) }
              : undefined;
      response.writeHead(answer ? (request.url === '/api/bot/sessions' ? 201 : 200) : 404, {
        'content-type': 'application/json',
      });
      response.end(JSON.stringify(answer ?? { code: 'NOT_FOUND' }));
    });
  });
  const io = new SocketServer(http);
  io.on('connection', (socket) => {
    socket.onAny((event: string, ...args: unknown[]) => {
      socketEvents.push(event);
      const ack = args.at(-1);
      if (typeof ack === 'function') ack({ ok: true });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    asked,
    socketEvents,
    async close() {
      await io.close();
    },
  };
}

async function edKey() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, privateKey, jwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig' } };
}
