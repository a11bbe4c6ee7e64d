import { entitlementsAt, LeaseVerifier } from '@bot/bot-agent';
import { JWKS_PATH, type PublicJwks } from '@bot/contracts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { newHwid, whitelist } from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { grantPermission } from '../access/index.ts';
import { leaseTimes } from './lease.service.ts';

// An outside tester found that entitlements ending in 2 minutes still gave a lease of 24 h + 24 h of
// grace: a customer whose package had ended kept their bot two more days offline. A lease now
// never outlives what it entitles (docs/licensing.md, "The lease format").

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const MINUTE = 60_000;

/** A customer holding the given bot permissions until the given ends (null: no end), and a lease. */
async function leaseFor(ends: { can_useGathering?: Date | null; can_useTreasure?: Date | null }) {
  const call = apiClient(server);
  const owner = await server.createUser({ permissions: [] });
  for (const [permission, expiresAt] of Object.entries(ends)) {
    await grantPermission(server.ctx, {
      id: newId(),
      userId: owner.user.id,
      permission: permission as 'can_useGathering',
      expiresAt: expiresAt ?? null,
      source: 'manual',
    });
  }
  await whitelist(server, owner.user.id, [`acc-${newId().slice(-8)}`]);
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  const hwid = newHwid();
  const session = await call<{ lease: string }>('POST', '/bot/sessions', {
    accessKey: key.body.data.accessKey,
    hwid,
    version: '1.0.0',
  });
  expect(session.status).toBe(201);
  const keys = (await (await fetch(`${server.url}${JWKS_PATH}`)).json()) as PublicJwks;
  return { lease: session.body.lease, hwid, keys };
}

describe('a lease lasts no longer than what it entitles', () => {
  it('entitlements ending in 2 minutes give a lease whose expiry plus grace ends with them', async () => {
    const end = new Date(Date.now() + 2 * MINUTE);
    const { lease, hwid, keys } = await leaseFor({ can_useGathering: end, can_useTreasure: end });
    const claims = decodeJwt(lease) as { exp: number; grace: number; entitlementEnds: unknown };
    expect((claims.exp + claims.grace) * 1000).toBeLessThanOrEqual(end.getTime());
    expect(claims.entitlementEnds).toEqual({
      can_useGathering: end.toISOString(),
      can_useTreasure: end.toISOString(),
    });
    // The agent stops on its own at that end, whatever the platform would say.
    const verified = await new LeaseVerifier({ hwid, keys }).verifyOffline(lease);
    expect(verified.stopsAt.getTime()).toBeLessThanOrEqual(end.getTime());
    await expect(
      new LeaseVerifier({ hwid, keys, now: () => end.getTime() + 1_000 }).verifyOffline(lease),
    ).rejects.toMatchObject({ code: 'LEASE_EXPIRED' });
  });

  it('an entitlement without an end keeps the full lifetime; the one that ends stops at its own end in the agent', async () => {
    const end = new Date(Date.now() + 2 * MINUTE);
    const { lease, hwid, keys } = await leaseFor({ can_useGathering: end, can_useTreasure: null });
    const claims = decodeJwt(lease) as { exp: number; iat: number; grace: number };
    expect(claims.exp - claims.iat).toBe(24 * 3600);
    expect(claims.grace).toBe(24 * 3600);
    const verified = await new LeaseVerifier({ hwid, keys }).verifyOffline(lease);
    expect(entitlementsAt(verified, Date.now())).toEqual(['can_useGathering', 'can_useTreasure']);
    expect(entitlementsAt(verified, end.getTime() + 1)).toEqual(['can_useTreasure']);
  });
});

describe('leaseTimes', () => {
  const issuedAt = new Date('2026-11-28T10:00:00.000Z');
  const lifetimeMs = 24 * 60 * MINUTE;
  const graceMs = 24 * 60 * MINUTE;
  const at = (minutes: number) => new Date(issuedAt.getTime() + minutes * MINUTE);

  it('gives the full lifetime and grace when an entitlement has no end, or there are none', () => {
    for (const ends of [[null], [at(2), null], []]) {
      expect(leaseTimes({ issuedAt, lifetimeMs, graceMs, ends })).toEqual({
        expiresAt: at(24 * 60),
        graceSeconds: 24 * 3600,
      });
    }
  });

  it('never lets expiry plus grace pass the latest end', () => {
    expect(leaseTimes({ issuedAt, lifetimeMs, graceMs, ends: [at(2), at(1)] })).toEqual({
      expiresAt: at(2),
      graceSeconds: 0,
    });
    // Ending in 30 hours: a full day of lease, then only the 6 hours left as grace.
    expect(leaseTimes({ issuedAt, lifetimeMs, graceMs, ends: [at(30 * 60)] })).toEqual({
      expiresAt: at(24 * 60),
      graceSeconds: 6 * 3600,
    });
  });
});
