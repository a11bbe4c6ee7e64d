import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEY_SET_PATH, KEY_SET_TYPE, LEASE_TYPE } from '@bot/contracts';
import { Server as SocketServer } from 'socket.io';

/**
 * The security issue's fake platform (a hosts entry, a rogue Wi-Fi; apps/server/test/attacks/
 * fake-platform.test.ts): a loopback HTTP + Socket.IO server answering in the platform's name. It
 * signs its key set with a root of its own and its leases with a key only that set names, so an
 * agent pinning the genuine root must refuse the lease, and never authenticate nor report here.
 */
export async function startFakePlatform() {
  const root = edKey();
  const leaseKey = edKey();
  const now = Math.floor(Date.now() / 1000);
  const tenYears = 10 * 365 * 86_400;
  const keySet = signJws(root, KEY_SET_TYPE, {
    version: 1_000_000,
    issuedAt: now,
    expiresAt: now + tenYears,
    keys: [{ ...leaseKey.jwk, purpose: 'lease', expiresAt: now + tenYears }],
  });
  const leaseFor = (hwid: string) =>
    signJws(leaseKey, LEASE_TYPE, {
      sub: 'anyone',
      hwid: createHash('sha256').update(hwid).digest('hex'),
      packages: [],
      entitlements: ['can_useGathering', 'can_useTreasure'],
      accounts: [],
      grace: tenYears,
      minVersion: '0.0.0',
      iat: now,
      exp: now + tenYears,
    });
  const answerTo = (url: string | undefined, hwid: string) => {
    if (url === KEY_SET_PATH) return { status: 200, json: { keySet, revocations: [] } };
    if (url === '/api/bot/lease') return { status: 200, json: { lease: leaseFor(hwid) } };
    if (url !== '/api/bot/sessions') return { status: 404, json: { code: 'NOT_FOUND' } };
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const session = { hwid, token: 'fake-session', expiresAt, whitelist: ['victime'], update: null };
    return { status: 201, json: { ...session, lease: leaseFor(hwid) } };
  };

  /** What the agent asked over HTTP, and what it did on the socket. */
  const asked: string[] = [];
  const socketEvents: string[] = [];
  const http = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const hwid = String((JSON.parse(body || '{}') as { hwid?: unknown }).hwid ?? '');
      const { status, json } = answerTo(request.url, hwid);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(json));
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
    close: () => io.close(),
  };
}

interface EdKey {
  privateKey: KeyObject;
  jwk: { kty: string; crv: string; x: string; kid: string; alg: 'EdDSA'; use: 'sig' };
}

/** An Ed25519 key of the attacker's, its public JWK named by its RFC 7638 thumbprint. */
function edKey(): EdKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { crv, kty, x } = publicKey.export({ format: 'jwk' }) as { crv: string; kty: string; x: string };
  const kid = createHash('sha256').update(JSON.stringify({ crv, kty, x })).digest('base64url');
  return { privateKey, jwk: { kty, crv, x, kid, alg: 'EdDSA', use: 'sig' } };
}

/** A compact JWS (EdDSA) of `claims` with the `typ` given. */
function signJws(key: EdKey, typ: string, claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'EdDSA', kid: key.jwk.kid, typ })}.${part(claims)}`;
  return `${input}.${sign(null, Buffer.from(input), key.privateKey).toString('base64url')}`;
}
