import { createHash } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BotClient, createBotClient } from '@bot/bot-agent';
import { JWKS_PATH, KEY_SET_PATH, KEY_SET_TYPE, LEASE_TYPE, RELEASE_MANIFEST_TYPE } from '@bot/contracts';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { Server as SocketServer } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Issue 43: a fake platform (a hosts entry, a rogue Wi-Fi, anyone on the path) served its own keys,
 * and the SDK accepted a lease valid until 2036 and installed the build of its choice. Here a real
 * small HTTP + Socket.IO server on loopback plays that platform, with its own JWKS, its own key set
 * signed by its own "root", a 10-year lease and an update 9.9.9 whose payload is a shell script.
 * The agent pins the vendor's root (`trustRoot`): it must refuse all of it.
 */
const PAYLOAD = Buffer.from('#!/bin/sh\necho pwned\n');
const clients: BotClient[] = [];
let fake: { url: string; close: () => Promise<void>; asked: string[] };
let genuineRoot: JWK;

async function edKey(purpose?: 'lease' | 'release') {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { privateKey, jwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig', ...(purpose ? { purpose } : {}) } };
}

async function startFakePlatform() {
  const root = await edKey();
  const lease = await edKey('lease');
  const release = await edKey('release');
  const now = Math.floor(Date.now() / 1000);
  const tenYears = now + 10 * 365 * 86_400;
  const keySet = await new SignJWT({
    version: 999,
    issuedAt: now,
    expiresAt: tenYears,
    keys: [
      { ...lease.jwk, purpose: 'lease', expiresAt: tenYears },
      { ...release.jwk, purpose: 'release', expiresAt: tenYears },
    ],
  })
    .setProtectedHeader({ alg: 'EdDSA', kid: root.jwk.kid, typ: KEY_SET_TYPE })
    .sign(root.privateKey);
  const asked: string[] = [];
  const http: HttpServer = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.url === JWKS_PATH) return json(200, { keys: [lease.jwk, release.jwk] });
    if (request.url === KEY_SET_PATH) return json(200, { keySet, revocations: [] });
    if (request.url === '/build.sh') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      return response.end(PAYLOAD);
    }
    if (request.url === '/api/bot/sessions' || request.url === '/api/bot/lease') {
      request.resume();
      const route = request.url as string;
      request.on(
        'end',
        () => void answerSession(route).then((body) => json(route === '/api/bot/sessions' ? 201 : 200, body)),
      );
      return;
    }
    json(404, { error: 'introuvable', code: 'NOT_FOUND' });
  });
  const address = () => `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  async function answerSession(route: string) {
    const hwid = createHash('sha256').update('victim-pc', 'utf8').digest('hex');
    const signedLease = await new SignJWT({
      sub: 'anyone',
      hwid,
      packages: [],
      entitlements: ['can_useGathering', 'can_useTreasure'],
      accounts: [],
      grace: 10 * 365 * 86_400,
      minVersion: '0.0.0',
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: lease.jwk.kid, typ: LEASE_TYPE })
      .setIssuedAt(now)
      .setExpirationTime(tenYears)
      .sign(lease.privateKey);
    if (route === '/api/bot/lease') return { lease: signedLease };
    const manifest = await new SignJWT({
      releaseId: 'evil',
      version: '9.9.9',
      channel: 'stable',
      size: PAYLOAD.length,
      sha256: createHash('sha256').update(PAYLOAD).digest('hex'),
      url: `${address()}/build.sh`,
      minAgentVersion: null,
      rollback: false,
      pageUrl: `${address()}/`,
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: release.jwk.kid, typ: RELEASE_MANIFEST_TYPE })
      .setExpirationTime(tenYears)
      .sign(release.privateKey);
    return {
      hwid: 'victim-pc',
      token: 'fake-session',
      expiresAt: new Date(tenYears * 1000).toISOString(),
      whitelist: [],
      lease: signedLease,
      update: {
        version: '9.9.9',
        channel: 'stable',
        notes: 'Correctif urgent',
        pageUrl: `${address()}/`,
        manifest,
        rollback: false,
      },
    };
  }
  const io = new SocketServer(http);
  io.on('connection', (socket) => {
    socket.on('authenticate', (_input: unknown, ack: (answer: { ok: boolean }) => void) => ack({ ok: true }));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: address(),
    asked,
    close: async () => {
      await io.close();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

beforeAll(async () => {
  fake = await startFakePlatform();
  genuineRoot = (await edKey()).jwk;
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  await fake.close();
});

describe('an agent talking to a fake platform', () => {
  it('refuses its 10-year lease, its update 9.9.9 and its payload, and never reads its JWKS', async () => {
    const errors: Error[] = [];
    const updates: unknown[] = [];
    const client = createBotClient({
      serverUrl: fake.url,
      accessKey: 'stolen-or-not',
      hwid: 'victim-pc',
      version: '1.0.0',
      trustRoot: genuineRoot,
    });
    clients.push(client);
    client.on('error', (error) => errors.push(error));
    client.on('updateAvailable', (update) => updates.push(update));

    await expect(client.connect()).rejects.toMatchObject({ code: 'LEASE_KEY_UNKNOWN' });
    expect(client.lease).toBeNull();
    expect(client.isConnected).toBe(false);
    expect(updates).toEqual([]);
    expect(client.update).toBeNull();
    await expect(client.downloadUpdate()).rejects.toMatchObject({ code: 'MANIFEST_MISSING' });
    // The key set it fetched was signed by another root: refused, and the JWKS is never a source of trust.
    expect(fake.asked).toContain(`GET ${KEY_SET_PATH}`);
    expect(fake.asked).not.toContain(`GET ${JWKS_PATH}`);
    expect(fake.asked).not.toContain('GET /build.sh');
  });

  it('refuses to start without a trust root (a JavaScript integrator gets no type error)', () => {
    expect(() =>
      createBotClient({
        serverUrl: fake.url,
        accessKey: 'k',
        hwid: 'victim-pc',
        version: '1.0.0',
      } as unknown as Parameters<typeof createBotClient>[0]),
    ).toThrow(/trustRoot/);
  });

  it('refuses http:// to a host that is not this machine unless the integrator opts in', async () => {
    const options = { accessKey: 'k', hwid: 'victim-pc', version: '1.0.0', trustRoot: genuineRoot };
    expect(() => createBotClient({ ...options, serverUrl: 'http://bots.example.fr' })).toThrow(/https/);
    const optedIn = createBotClient({
      ...options,
      serverUrl: 'http://bots.example.invalid',
      allowInsecureHttp: true,
    });
    clients.push(optedIn);
    await vi.waitFor(() => expect(optedIn.isConnected).toBe(false));
  });
});
