import { type BotApiError, createBotClient, hwidHash, KeyTrust, LeaseVerifier } from '@bot/bot-agent';
import { JWKS_PATH, type PublicJwks } from '@bot/contracts';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { createBotOwner, newHwid } from '../../../test/helpers/realtime.ts';
import { loadDevelopmentRoot, revokeKey, signKeySet } from './key-set.service.ts';
import { signLease } from './lease.service.ts';

let server: TestServer;
const SYSTEM = { id: null, username: 'test', ip: null };

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function fetchKeys(): Promise<PublicJwks> {
  const response = await fetch(`${server.url}${JWKS_PATH}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
  return (await response.json()) as PublicJwks;
}

async function sessionLease(owner: { accessKey: string; hwid: string }): Promise<string> {
  const answer = await apiClient(server)<{ lease: string; token: string }>('POST', '/bot/sessions', {
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
  });
  expect(answer.status).toBe(201);
  return answer.body.lease;
}

it('a lease from POST /api/bot/sessions holds the licence and verifies in the SDK with the keys fetched once', async () => {
  const owner = await createBotOwner(server, { accounts: ['Lease-One'] });
  const lease = await sessionLease(owner);
  const header = decodeProtectedHeader(lease);
  expect(header).toMatchObject({ alg: 'EdDSA', typ: 'bot-lease+jwt' });
  const claims = decodeJwt(lease);
  expect(claims).toMatchObject({
    sub: owner.user.id,
    hwid: hwidHash(owner.hwid),
    entitlements: ['can_useGathering', 'can_useTreasure'],
    accounts: ['Lease-One'],
    grace: 24 * 3600,
    minVersion: '0.0.0',
  });
  expect((claims.exp as number) - (claims.iat as number)).toBe(24 * 3600);
  expect(JSON.stringify(claims)).not.toContain(owner.hwid);

  const verifier = new LeaseVerifier({ hwid: owner.hwid, keys: await fetchKeys() });
  const verified = await verifier.verifyOffline(lease);
  expect(verified.kid).toBe(header.kid);
  expect(verified.inGrace).toBe(false);
});

it('refuses a tampered lease, a lease for another PC, an expired one and a clock moved back', async () => {
  const owner = await createBotOwner(server);
  const lease = await sessionLease(owner);
  const keys = await fetchKeys();
  const verifier = () => new LeaseVerifier({ hwid: owner.hwid, keys });

  const [head, body, signature] = lease.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  const forged = Buffer.from(JSON.stringify({ ...claims, accounts: ['stolen'] })).toString('base64url');
  await expect(verifier().verifyOffline(`${head}.${forged}.${signature}`)).rejects.toMatchObject({
    code: 'LEASE_SIGNATURE_INVALID',
  });

  await expect(new LeaseVerifier({ hwid: newHwid(), keys }).verifyOffline(lease)).rejects.toMatchObject({
    code: 'LEASE_OTHER_PC',
  });

  // Signed by the real signing function, issued two days ago for one hour with one hour of grace.
  const past = Date.now() - 48 * 3_600_000;
  const content = { ...(claims as never as Parameters<typeof signLease>[1]['content']), grace: 3_600 };
  const expired = await signLease(server.ctx, {
    content,
    issuedAt: new Date(past),
    expiresAt: new Date(past + 3_600_000),
  });
  await expect(verifier().verifyOffline(expired)).rejects.toMatchObject({ code: 'LEASE_EXPIRED' });
  // The same lease within its grace: accepted, and said to run on it.
  const inGrace = await signLease(server.ctx, {
    content,
    issuedAt: new Date(Date.now() - 2 * 3_600_000),
    expiresAt: new Date(Date.now() - 60_000),
  });
  expect((await verifier().verifyOffline(inGrace)).inGrace).toBe(true);

  let now = Date.now();
  const clocked = new LeaseVerifier({ hwid: owner.hwid, keys, now: () => now });
  await clocked.verifyOffline(lease);
  now -= 3_600_000; // the clock set back an hour
  await expect(clocked.verifyOffline(lease)).rejects.toMatchObject({ code: 'LEASE_CLOCK_MOVED_BACK' });
  // A fresh start told the latest time it stored refuses it as well.
  const restarted = new LeaseVerifier({ hwid: owner.hwid, keys, now: () => now, lastSeenAt: Date.now() });
  await expect(restarted.verifyOffline(lease)).rejects.toMatchObject({ code: 'LEASE_CLOCK_MOVED_BACK' });
});

it('rotation with the root: the standby already trusted takes over, the previous key still verifies its leases; a revoked key is refused', async () => {
  const owner = await createBotOwner(server);
  const before = await sessionLease(owner);
  const oldKid = decodeProtectedHeader(before).kid as string;
  // An agent that fetched the set before the rotation.
  const trust = new KeyTrust({ trustRoot: server.trustRoot, serverUrl: server.url, now: Date.now });
  await trust.refresh();
  const versionBefore = trust.version;
  expect((await trust.keysFor('lease')).keys).toHaveLength(2); // the current key and its standby

  const ctx = server.ctx;
  await signKeySet(ctx, { root: await loadDevelopmentRoot(ctx), rotate: 'lease', actor: SYSTEM });
  const after = await sessionLease(owner);
  const newKid = decodeProtectedHeader(after).kid as string;
  expect(newKid).not.toBe(oldKid);
  // The new key was the standby of the set it holds: no fetch needed to trust it.
  const verifier = new LeaseVerifier({ hwid: owner.hwid, trust });
  await verifier.verifyOffline(before);
  await verifier.verifyOffline(after);
  await trust.refresh();
  expect(trust.version).toBe(versionBefore + 1);

  await revokeKey(ctx, { kid: oldKid, actor: SYSTEM });
  // Online, the SDK fetches the set and its signed revocations and refuses the revoked key.
  const online = new LeaseVerifier({
    hwid: owner.hwid,
    trust: new KeyTrust({ trustRoot: server.trustRoot, serverUrl: server.url, now: Date.now }),
  });
  await expect(online.verify(before)).rejects.toMatchObject({ code: 'LEASE_KEY_UNKNOWN' });
  await online.verify(after);
  // The agent that held the set learns it too.
  await trust.refresh();
  await expect(verifier.verifyOffline(before)).rejects.toMatchObject({ code: 'LEASE_KEY_UNKNOWN' });
});

it('the SDK client verifies its lease, renews it, and keeps it verified offline once the server is gone', async () => {
  const own = await startTestServer();
  const owner = await createBotOwner(own);
  const client = createBotClient({
    serverUrl: own.url,
    trustRoot: own.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
  });
  const revoked: BotApiError[] = [];
  client.on('leaseRevoked', (error) => revoked.push(error));
  await client.openSession();
  expect(client.lease?.claims.sub).toBe(owner.user.id);
  const renewed = await client.renewLease();
  expect(renewed.claims.hwid).toBe(hwidHash(owner.hwid));
  await client.stop();
  await own.close();
  expect((await client.checkLease()).claims.sub).toBe(owner.user.id);
  expect(revoked).toEqual([]);
});

it('the admin routes show the key set and the command that rotates it, and revoke keys with can_manageSettings, audited', async () => {
  const call = apiClient(server);
  const staff = await server.createUser({ permissions: ['can_manageSettings', 'can_manageAudit'] });
  const customer = await server.createUser();
  expect((await call('GET', '/admin/key-set', undefined, customer.token)).status).toBe(403);
  // The server cannot sign a set: rotating is the operator's command, with the root key file.
  expect((await call('POST', '/admin/signing-keys/rotate', undefined, staff.token)).status).toBe(404);
  const set = await call<{ data: { version: number; rotateCommand: string; isDevelopmentRoot: boolean } }>(
    'GET',
    '/admin/key-set',
    undefined,
    staff.token,
  );
  expect(set.status).toBe(200);
  expect(set.body.data).toMatchObject({ isDevelopmentRoot: true });
  expect(set.body.data.rotateCommand).toContain('npm run keys:rotate -- --root-key');
  const list = await call<{ data: { kid: string; state: string; purpose: string }[] }>(
    'GET',
    '/admin/signing-keys',
    undefined,
    staff.token,
  );
  const current = list.body.data.find((key) => key.state === 'current' && key.purpose === 'lease');
  const standby = list.body.data.find((key) => key.state === 'standby' && key.purpose === 'lease');
  expect(current && standby).toBeTruthy();
  expect(
    (await call('POST', `/admin/signing-keys/${current?.kid}/revoke`, undefined, customer.token)).status,
  ).toBe(403);
  expect(await call('POST', '/admin/signing-keys/aucune-cle/revoke', undefined, staff.token)).toMatchObject({
    status: 404,
    body: { code: 'SIGNING_KEY_NOT_FOUND' },
  });
  const revoked = await call<{ data: { state: string } }>(
    'POST',
    `/admin/signing-keys/${current?.kid}/revoke`,
    undefined,
    staff.token,
  );
  expect(revoked.body.data.state).toBe('revoked');
  // Its standby took over without the root.
  const after = await call<{ data: { kid: string; state: string }[] }>(
    'GET',
    '/admin/signing-keys',
    undefined,
    staff.token,
  );
  expect(after.body.data.find((key) => key.kid === standby?.kid)?.state).toBe('current');
  const keys = await fetchKeys();
  expect(keys.keys.map((key) => key.kid)).not.toContain(current?.kid);
  const audit = await call<{ data: { action: string; targetId: string }[] }>(
    'GET',
    '/admin/audit?action=signing_key.',
    undefined,
    staff.token,
  );
  expect(
    audit.body.data.filter((entry) => entry.targetId === current?.kid).map((entry) => entry.action),
  ).toEqual(['signing_key.revoke']);
});
