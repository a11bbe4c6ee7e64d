import { KeyTrust, LeaseVerifier } from '@bot/bot-agent';
import { KEY_SET_PATH, type KeySetAnswer, LEASE_MAX_RUN_SECONDS } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  attackBench,
  edKey,
  genuineKeySetAnswer,
  leaseWith,
  now,
  rootSigned,
  sessionAnswer,
  TEN_YEARS,
} from '../../../test/helpers/fake-platform.ts';
import { createBotOwner } from '../../../test/helpers/realtime.ts';
import { loadDevelopmentRoot, signKeySet } from './key-set.service.ts';
import { currentSigner, revokeSigningKey } from './signing-keys.service.ts';

/**
 * What an agent trusts survives its restart (docs/licensing.md, "The root of trust"): the revocations
 * it verified are stored with its key set, so a fake platform replaying that set without them cannot
 * bring back a leaked key; and a lease never runs past its key's or its set's expiry, nor 60 days
 * after its issue, whatever it says.
 */
let server: TestServer;
const bench = attackBench(() => server);
const SYSTEM = { id: null, username: 'test', ip: null };

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await bench.close();
  await server?.close();
});

describe('a leaked lease key the platform has since revoked', () => {
  it('an agent told of a revocation, restarted with the key set it stored, refuses a lease signed by the revoked key when a fake platform withholds the revocation', async () => {
    const call = apiClient(server);
    const admin = await server.createUser({ isAdministrator: true });
    const owner = await createBotOwner(server);
    const before = await genuineKeySetAnswer(server);
    const leaked = await currentSigner(server.ctx, 'lease'); // e.g. read from a pre-upgrade backup

    // Run 1, on the real platform: the agent runs on a lease of that key and stores what it is told.
    let stored: string | undefined = before.keySet;
    const first = bench.agent(server.url, {
      accessKey: owner.accessKey,
      hwid: owner.hwid,
      keySet: before.keySet,
      onKeySet: (set) => {
        stored = set;
      },
    });
    await first.client.connect();
    expect(first.client.lease?.kid).toBe(leaked.kid);
    // The operator revokes the leaked key: the connected agent is told and renews on another key.
    const revoked = await call('POST', `/admin/signing-keys/${leaked.kid}/revoke`, {}, admin.token);
    expect(revoked.status).toBe(200);
    await vi.waitFor(() => expect(first.client.lease?.kid).not.toBe(leaked.kid), { timeout: 10_000 });
    await first.client.stop();

    // Run 2, the real platform out of reach: a fake one replays a set (what the agent stored, or the
    // genuine set it ran on) with a 10-year lease signed by the leaked key, and keeps the revocations.
    const forged = await leaseWith(leaked, owner.hwid);
    for (const replayed of [stored, before.keySet]) {
      const fake = await bench.fakePlatform(async (req) => {
        if (req.url === KEY_SET_PATH) return { status: 200, json: { keySet: replayed, revocations: [] } };
        if (req.url === '/api/bot/sessions') return { status: 201, json: sessionAnswer(owner.hwid, forged) };
        if (req.url === '/api/bot/lease') return { status: 200, json: { lease: forged } };
        return undefined;
      });
      const second = bench.agent(fake.url, { keySet: stored, accessKey: owner.accessKey, hwid: owner.hwid });
      await expect(second.client.connect()).rejects.toMatchObject({ code: 'LEASE_KEY_UNKNOWN' });
      expect(second.client.lease).toBeNull();
    }
  });

  it('a revocation learnt from the published list is stored too, and dropped once a newer set no longer names the key', async () => {
    const ctx = server.ctx;
    const told: string[] = [];
    const trust = new KeyTrust({
      trustRoot: server.trustRoot,
      serverUrl: server.url,
      now: Date.now,
      onKeySet: (stored) => told.push(stored),
    });
    await trust.refresh();
    const current = await currentSigner(ctx, 'lease');
    const standby = (await trust.keysFor('lease')).keys.find((key) => key.kid !== current.kid);
    // A public installation: the revocation is published, the set stays the same version.
    await revokeSigningKey(ctx, { kid: current.kid, actor: SYSTEM });
    const published = await genuineKeySetAnswer(server);
    const stale: KeySetAnswer = { keySet: trust.keySet as string, revocations: published.revocations };
    const fake = await bench.fakePlatform(async (req) =>
      req.url === KEY_SET_PATH ? { status: 200, json: stale } : undefined,
    );
    const learning = new KeyTrust({
      trustRoot: server.trustRoot,
      serverUrl: fake.url,
      keySet: trust.keySet,
      now: Date.now,
      onKeySet: (stored) => told.push(stored),
    });
    await learning.refresh();
    const stored = JSON.parse(told.at(-1) as string) as KeySetAnswer;
    expect(stored.keySet).toBe(trust.keySet);
    expect(stored.revocations).toHaveLength(1);
    const restarted = new KeyTrust({ trustRoot: server.trustRoot, keySet: told.at(-1), now: Date.now });
    expect((await restarted.keysFor('lease')).keys.map((key) => key.kid)).toEqual([standby?.kid]);

    // The operator signs a newer set (keys:rotate): it leaves the revoked key out; nothing left to keep.
    await signKeySet(ctx, { root: await loadDevelopmentRoot(ctx), actor: SYSTEM });
    await restarted.accept((await genuineKeySetAnswer(server)).keySet);
    expect((JSON.parse(restarted.stored as string) as KeySetAnswer).revocations).toEqual([]);
    expect((await restarted.keysFor('lease')).keys.map((key) => key.kid)).not.toContain(current.kid);
  });
});

describe('a lease never outlives its key, its key set, or 60 days after its issue', () => {
  async function stopsAtUnder(set: { setExpiresIn: number; keyExpiresIn: number }) {
    const key = await edKey('lease');
    const keySet = await rootSigned(server, {
      version: 1,
      issuedAt: now(),
      expiresAt: now() + set.setExpiresIn,
      keys: [{ ...key.jwk, purpose: 'lease', expiresAt: now() + set.keyExpiresIn }],
    });
    const trust = new KeyTrust({ trustRoot: server.trustRoot, keySet, now: Date.now });
    const verifier = new LeaseVerifier({ hwid: 'victim-pc-0001', trust });
    const lease = await verifier.verify(await leaseWith(key, 'victim-pc-0001'));
    const claims = lease.claims;
    expect(claims.exp + claims.grace).toBeGreaterThan(now() + 2 * TEN_YEARS - 60); // what it says
    return { stopsAt: lease.stopsAt.getTime() / 1000, expiresAt: lease.expiresAt.getTime() / 1000, claims };
  }

  it('stops at its key set’s expiry, at its key’s, and 60 days after its iat, whichever comes first', async () => {
    const bySet = await stopsAtUnder({ setExpiresIn: 3600, keyExpiresIn: TEN_YEARS });
    expect(bySet.stopsAt).toBeLessThanOrEqual(now() + 3600);
    expect(bySet.stopsAt).toBeGreaterThan(now() + 3500);
    const byKey = await stopsAtUnder({ setExpiresIn: TEN_YEARS, keyExpiresIn: 7200 });
    expect(byKey.stopsAt).toBeLessThanOrEqual(now() + 7200);
    expect(byKey.stopsAt).toBeGreaterThan(now() + 7100);
    const byLifetime = await stopsAtUnder({ setExpiresIn: TEN_YEARS, keyExpiresIn: TEN_YEARS });
    expect(LEASE_MAX_RUN_SECONDS).toBe(60 * 86_400);
    expect(byLifetime.stopsAt).toBe(byLifetime.claims.iat + LEASE_MAX_RUN_SECONDS);
    expect(byLifetime.expiresAt).toBeLessThanOrEqual(byLifetime.stopsAt);
  });
});
