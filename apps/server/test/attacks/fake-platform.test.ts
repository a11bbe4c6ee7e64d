import {
  KEY_REVOCATION_TYPE,
  KEY_SET_PATH,
  KEY_SET_TYPE,
  LEASE_TYPE,
  RELEASE_MANIFEST_TYPE,
} from '@bot/contracts';
import { type CryptoKey, decodeJwt, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { currentSigner, loadDevelopmentRoot } from '../../src/modules/licensing/index.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import {
  attackBench,
  edKey,
  genuineKeySetAnswer,
  leaseWith,
  now,
  rootSigned,
  sessionAnswer,
  sha,
  TEN_YEARS,
} from '../helpers/fake-platform.ts';
import { createBotOwner } from '../helpers/realtime.ts';

/**
 * Attack family 1: a fake platform (hosts entry, rogue Wi-Fi) and a man in the middle. The agent
 * pins the genuine root of a real test server and talks to a small real HTTP + Socket.IO server of
 * ours. What must hold: nothing the genuine root did not vouch for is accepted. The revocation an
 * agent must remember across a restart and the lease of another PC passed off by a proxy are proven
 * beside the licensing module (trust.restart.sdk.test.ts, lease.other-pc.sdk.test.ts).
 */

const PAYLOAD = Buffer.from('#!/bin/sh\necho pwned\n');

let server: TestServer;
const bench = attackBench(() => server);
const { fakePlatform, agent } = bench;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await bench.close();
  await server?.close();
});

describe('fake platform: key sets the genuine root did not vouch for', () => {
  const variants: Array<
    [string, (attacker: { lease: Awaited<ReturnType<typeof edKey>> }) => Promise<string>]
  > = [
    [
      'unsigned (alg none)',
      async ({ lease }) => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: KEY_SET_TYPE })).toString('base64url');
        const payload = Buffer.from(
          JSON.stringify({
            version: 99,
            issuedAt: now(),
            expiresAt: now() + TEN_YEARS,
            keys: [{ ...lease.jwk, purpose: 'lease', expiresAt: now() + TEN_YEARS }],
          }),
        ).toString('base64url');
        return `${header}.${payload}.`;
      },
    ],
    [
      'self-signed by the attacker root',
      async ({ lease }) => {
        const root = await edKey();
        return new SignJWT({
          version: 99,
          issuedAt: now(),
          expiresAt: now() + TEN_YEARS,
          keys: [{ ...lease.jwk, purpose: 'lease', expiresAt: now() + TEN_YEARS }],
        })
          .setProtectedHeader({ alg: 'EdDSA', kid: server.trustRoot.kid as string, typ: KEY_SET_TYPE })
          .sign(root.privateKey);
      },
    ],
    [
      'signed by a lease key of the genuine set',
      async ({ lease }) => {
        const signer = await currentSigner(server.ctx, 'lease');
        return new SignJWT({
          version: 99,
          issuedAt: now(),
          expiresAt: now() + TEN_YEARS,
          keys: [{ ...lease.jwk, purpose: 'lease', expiresAt: now() + TEN_YEARS }],
        })
          .setProtectedHeader({ alg: 'EdDSA', kid: signer.kid, typ: KEY_SET_TYPE })
          .sign(signer.privateKey);
      },
    ],
    [
      'root-signed but expired',
      async ({ lease }) =>
        rootSigned(server, {
          version: 99,
          issuedAt: now() - 100,
          expiresAt: now() - 10,
          keys: [{ ...lease.jwk, purpose: 'lease', expiresAt: now() + TEN_YEARS }],
        }),
    ],
    [
      'root-signed but its keys lack a purpose',
      async ({ lease }) => {
        const { purpose: _p, ...bare } = lease.jwk as JWK & { purpose?: string };
        return rootSigned(server, {
          version: 99,
          issuedAt: now(),
          expiresAt: now() + 3600,
          keys: [{ ...bare, expiresAt: now() + 3600 }],
        });
      },
    ],
    [
      'root-signed with the wrong typ (a lease type)',
      async ({ lease }) => {
        const root = await loadDevelopmentRoot(server.ctx);
        return new SignJWT({
          version: 99,
          issuedAt: now(),
          expiresAt: now() + 3600,
          keys: [{ ...lease.jwk, purpose: 'lease', expiresAt: now() + 3600 }],
        })
          .setProtectedHeader({ alg: 'EdDSA', kid: root.kid, typ: LEASE_TYPE })
          .sign(root.privateKey);
      },
    ],
  ];

  for (const [name, makeSet] of variants) {
    it(`refuses a 10-year lease served with a key set ${name}`, async () => {
      const lease = await edKey('lease');
      const keySet = await makeSet({ lease });
      const signed = await leaseWith(lease, 'victim-pc-0001');
      const fake = await fakePlatform(async (req) => {
        if (req.url === KEY_SET_PATH) return { status: 200, json: { keySet, revocations: [] } };
        if (req.url === '/api/bot/sessions')
          return { status: 201, json: sessionAnswer('victim-pc-0001', signed) };
        if (req.url === '/api/bot/lease') return { status: 200, json: { lease: signed } };
        return undefined;
      });
      const { client } = agent(fake.url);
      await expect(client.connect()).rejects.toBeTruthy();
      expect(client.lease).toBeNull();
      expect(fake.asked).toContain(`GET ${KEY_SET_PATH}`);
    });
  }

  it('an agent holding the genuine set refuses a root-signed set of the same version with other keys, and an older replay', async () => {
    const genuine = await genuineKeySetAnswer(server);
    const held = decodeJwt(genuine.keySet) as { version: number };
    const attacker = await edKey('lease');
    const sameVersion = await rootSigned(server, {
      version: held.version,
      issuedAt: now(),
      expiresAt: now() + 3600,
      keys: [{ ...attacker.jwk, purpose: 'lease', expiresAt: now() + 3600 }],
    });
    const signed = await leaseWith(attacker, 'victim-pc-0001');
    const fake = await fakePlatform(async (req) => {
      if (req.url === KEY_SET_PATH) return { status: 200, json: { keySet: sameVersion, revocations: [] } };
      if (req.url === '/api/bot/sessions')
        return { status: 201, json: sessionAnswer('victim-pc-0001', signed) };
      return undefined;
    });
    const { client } = agent(fake.url, { keySet: genuine.keySet });
    await expect(client.connect()).rejects.toMatchObject({ code: 'LEASE_KEY_UNKNOWN' });
    expect(client.lease).toBeNull();
  });
});

describe('fake platform: revocation statements', () => {
  it('ignores a forged lease_revoked statement and keeps its genuine lease', async () => {
    const owner = await createBotOwner(server);
    const genuine = await genuineKeySetAnswer(server);
    // A MITM in front of the real platform for HTTP; its own socket server pushes a forged revocation.
    const fake = await fakePlatform(async (req, body) => {
      if (req.url === KEY_SET_PATH) return { status: 200, json: genuine };
      if (req.url?.startsWith('/api/')) {
        const answer = await fetch(`${server.url}${req.url}`, {
          method: req.method,
          headers: { 'content-type': 'application/json' },
          body: body || undefined,
        });
        return { status: answer.status, json: await answer.json() };
      }
      return undefined;
    });
    const { client, errors } = agent(fake.url, { accessKey: owner.accessKey, hwid: owner.hwid });
    await client.connect();
    const lease = client.lease;
    expect(lease).not.toBeNull();
    const attacker = await edKey('lease');
    const statement = await new SignJWT({ revokedKid: lease?.kid, revokedAt: now() })
      .setProtectedHeader({ alg: 'EdDSA', kid: attacker.jwk.kid as string, typ: KEY_REVOCATION_TYPE })
      .sign(attacker.privateKey);
    const fatal = vi.fn();
    client.on('fatal', fatal);
    fake.sockets
      .at(-1)
      ?.emit('lease_revoked', { error: 'x', code: 'KEY_REVOKED', kid: lease?.kid, statement } as never);
    await vi.waitFor(() =>
      expect(errors.some((error) => (error as { code?: string }).code === 'REVOCATION_INVALID')).toBe(true),
    );
    expect(client.lease?.token).toBe(lease?.token);
    expect(fatal).not.toHaveBeenCalled();
  });
});

describe('fake platform: update offers', () => {
  async function manifest(
    signer: { kid: string; privateKey: CryptoKey },
    claims: Record<string, unknown>,
    typ = RELEASE_MANIFEST_TYPE,
  ) {
    return new SignJWT({
      releaseId: 'r1',
      channel: 'stable',
      minAgentVersion: null,
      rollback: false,
      pageUrl: 'https://example.test/',
      ...claims,
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: signer.kid, typ })
      .setExpirationTime(now() + 3600)
      .sign(signer.privateKey);
  }

  /** A MITM that passes the real session through and adds the update offer of its choice. */
  async function offering(makeUpdate: (fakeUrl: string) => Promise<unknown>, raw?: Buffer) {
    const owner = await createBotOwner(server);
    const genuine = await genuineKeySetAnswer(server);
    let url = '';
    const fake = await fakePlatform(async (req, body) => {
      if (req.url === KEY_SET_PATH) return { status: 200, json: genuine };
      if (req.url === '/build.bin') return { status: 200, raw: raw ?? PAYLOAD };
      if (req.url?.startsWith('/api/')) {
        const answer = await fetch(`${server.url}${req.url}`, {
          method: req.method,
          headers: { 'content-type': 'application/json' },
          body: body || undefined,
        });
        const json = (await answer.json()) as Record<string, unknown>;
        if (req.url === '/api/bot/sessions') json.update = await makeUpdate(url);
        return { status: answer.status, json };
      }
      return undefined;
    });
    url = fake.url;
    const { client, errors } = agent(fake.url, { accessKey: owner.accessKey, hwid: owner.hwid });
    await client.openSession();
    return { client, errors };
  }

  const offer = (version: string, token: string, extra: Record<string, unknown> = {}) => ({
    version,
    channel: 'stable',
    notes: 'Correctif urgent',
    pageUrl: 'https://example.test/',
    manifest: token,
    rollback: false,
    ...extra,
  });

  it('refuses 9.9.9 signed by the attacker, and by the genuine lease key', async () => {
    for (const signer of [await edKey('release'), await currentSigner(server.ctx, 'lease')]) {
      const key = 'jwk' in signer ? { kid: signer.jwk.kid as string, privateKey: signer.privateKey } : signer;
      const { client, errors } = await offering(async (url) =>
        offer(
          '9.9.9',
          await manifest(key, {
            version: '9.9.9',
            size: PAYLOAD.length,
            sha256: sha(PAYLOAD),
            url: `${url}/build.bin`,
          }),
        ),
      );
      expect(client.update).toBeNull();
      expect(errors.map((error) => (error as { code?: string }).code)).toContain('MANIFEST_KEY_UNKNOWN');
      await expect(client.downloadUpdate()).rejects.toMatchObject({ code: 'MANIFEST_MISSING' });
    }
  });

  it('refuses a genuinely signed older build offered without a signed rollback', async () => {
    const release = await currentSigner(server.ctx, 'release');
    const { client, errors } = await offering(async (url) =>
      offer(
        '0.9.0',
        await manifest(release, {
          version: '0.9.0',
          size: PAYLOAD.length,
          sha256: sha(PAYLOAD),
          url: `${url}/build.bin`,
        }),
      ),
    );
    expect(client.update).toBeNull();
    expect(errors.map((error) => (error as { code?: string }).code)).toContain('MANIFEST_OLDER');
  });

  it('refuses a signed rollback that names another running version', async () => {
    const release = await currentSigner(server.ctx, 'release');
    const { client } = await offering(async (url) =>
      offer(
        '0.9.0',
        await manifest(release, {
          version: '0.9.0',
          rollback: true,
          rollbackFrom: '1.0.1',
          size: PAYLOAD.length,
          sha256: sha(PAYLOAD),
          url: `${url}/build.bin`,
        }),
        { rollback: true },
      ),
    );
    expect(client.update).toBeNull();
  });

  it('downloads only what the signed manifest says: a lying size or hash is refused, the offer’s own url is ignored', async () => {
    const release = await currentSigner(server.ctx, 'release');
    const genuineBytes = Buffer.from('genuine build');
    const { client } = await offering(
      async (url) => ({
        ...offer(
          '1.5.0',
          await manifest(release, {
            version: '1.5.0',
            size: genuineBytes.length,
            sha256: sha(genuineBytes),
            url: `${url}/build.bin`,
          }),
        ),
        url: 'http://evil.example/x',
      }),
      PAYLOAD,
    );
    expect(client.update?.verified.version).toBe('1.5.0');
    await expect(client.downloadUpdate()).rejects.toMatchObject({ code: 'UPDATE_SIZE_MISMATCH' });
  });

  it('refuses a signed manifest whose download is plain http:// to another machine', async () => {
    const release = await currentSigner(server.ctx, 'release');
    const { client, errors } = await offering(async () =>
      offer(
        '1.6.0',
        await manifest(release, {
          version: '1.6.0',
          size: PAYLOAD.length,
          sha256: sha(PAYLOAD),
          url: 'http://updates.example.test/build.bin',
        }),
      ),
    );
    expect(client.update).toBeNull();
    expect(errors.map((error) => (error as { code?: string }).code)).toContain('MANIFEST_INSECURE_URL');
  });

  it('refuses http:// to a non-loopback platform at construction', () => {
    expect(() => agent('http://bots.example.fr')).toThrow(/https/);
    expect(() => agent('http://127.0.0.1.nip.io')).toThrow(/https/);
    expect(() => agent('http://[::ffff:7f00:1]')).toThrow(/https/);
  });
});

describe('man in the middle: rewriting the real platform’s answers', () => {
  it('a lease whose claims were rewritten (longer expiry) fails its signature', async () => {
    const owner = await createBotOwner(server);
    const fake = await fakePlatform(async (req, body) => {
      if (req.url === KEY_SET_PATH) return { status: 200, json: await genuineKeySetAnswer(server) };
      if (req.url?.startsWith('/api/')) {
        const answer = await fetch(`${server.url}${req.url}`, {
          method: req.method,
          headers: { 'content-type': 'application/json' },
          body: body || undefined,
        });
        const json = (await answer.json()) as { lease?: string };
        if (json.lease) {
          const [h, p, s] = json.lease.split('.');
          const claims = JSON.parse(Buffer.from(p as string, 'base64url').toString()) as { exp: number };
          claims.exp += TEN_YEARS;
          json.lease = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
        }
        return { status: answer.status, json };
      }
      return undefined;
    });
    const { client } = agent(fake.url, { accessKey: owner.accessKey, hwid: owner.hwid });
    await expect(client.openSession()).rejects.toMatchObject({ code: 'LEASE_SIGNATURE_INVALID' });
    expect(client.lease).toBeNull();
  });
});
