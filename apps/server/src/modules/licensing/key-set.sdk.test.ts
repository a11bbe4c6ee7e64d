import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  AgentUpdates,
  type BotClient,
  createBotClient,
  KeyTrust,
  LeaseVerifier,
  type VerifiedLease,
} from '@bot/bot-agent';
import {
  DEFAULT_ALERT_PREFERENCES,
  DEFAULT_FLEET_ALERT_PREFERENCES,
  KEY_REVOCATION_TYPE,
  type NotificationsAnswer,
  RELEASE_MANIFEST_TYPE,
  type ReleaseManifest,
} from '@bot/contracts';
import { decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../../test/database.ts';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { announce } from '../../../test/helpers/events.ts';
import { createBotOwner } from '../../../test/helpers/realtime.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { evaluateAlerts } from '../alerts/index.ts';
import {
  DEVELOPMENT_ROOT_FILE,
  findCurrentKeySet,
  keySetProblems,
  loadDevelopmentRoot,
  revokeKey,
  signKeySet,
} from './key-set.service.ts';
import { currentSigner } from './signing-keys.service.ts';

/** The root of trust (decision 912) with the real server, the real SDK and real signatures. */
let server: TestServer;
const clients: BotClient[] = [];
const SYSTEM = { id: null, username: 'test', ip: null };
const DAY = 86_400_000;

beforeAll(async () => {
  // The alert evaluation runs when this file says (below), never on its own in between.
  server = await startTestServer({ alerts: { evaluateEveryMs: 3_600_000 } });
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  await server?.close();
});

const trustOf = (now = Date.now) => new KeyTrust({ trustRoot: server.trustRoot, serverUrl: server.url, now });

describe('the key set an agent accepts', () => {
  it('a loopback installation signs it with a development root kept in DATA_DIR, readable by its owner only', async () => {
    const file = path.join(server.ctx.config.dataDir, DEVELOPMENT_ROOT_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const trust = trustOf();
    await trust.refresh();
    expect(trust.version).toBeGreaterThan(0);
    expect((await trust.keysFor('lease')).keys).toHaveLength(2);
    expect((await trust.keysFor('release')).keys).toHaveLength(2);
  });

  it('refuses a set older than the one it holds, an expired one, and one its root did not sign', async () => {
    const trust = trustOf();
    await trust.refresh();
    const older = trust.keySet as string;
    const ctx = server.ctx;
    await signKeySet(ctx, { root: await loadDevelopmentRoot(ctx), actor: SYSTEM, rotate: 'release' });
    await trust.refresh();
    const newer = trust.keySet as string;
    expect(newer).not.toBe(older);
    // A replay of the older version (a fake platform, a stale cache) changes nothing.
    await expect(trust.accept(older)).rejects.toMatchObject({ code: 'KEY_SET_ROLLBACK' });
    expect(trust.keySet).toBe(newer);
    // The stored set of an agent started again is the floor too.
    const restarted = new KeyTrust({ trustRoot: server.trustRoot, keySet: newer, now: Date.now });
    await expect(restarted.accept(older)).rejects.toMatchObject({ code: 'KEY_SET_ROLLBACK' });

    // Past its expiry a set is refused, and an agent holding it trusts no key until it gets a new one.
    const later = () => Date.now() + 200 * DAY;
    await expect(trustOf(later).accept(newer)).rejects.toMatchObject({ code: 'KEY_SET_EXPIRED' });
    const owner = await createBotOwner(server);
    const session = await fetch(`${server.api}/bot/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: owner.accessKey, hwid: owner.hwid, version: '1.0.0' }),
    });
    const { lease } = (await session.json()) as { lease: string };
    let now = Date.now();
    const holding = new KeyTrust({ trustRoot: server.trustRoot, keySet: newer, now: () => now });
    const verifier = new LeaseVerifier({ hwid: owner.hwid, trust: holding, now: () => now });
    await verifier.verifyOffline(lease);
    now += 200 * DAY;
    await expect(verifier.verifyOffline(lease)).rejects.toMatchObject({ code: 'LEASE_KEY_SET_EXPIRED' });

    // Signed by another root, or changed under the root's signature: refused.
    const other = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const payload = JSON.parse(Buffer.from(newer.split('.')[1] ?? '', 'base64url').toString());
    const foreign = await new SignJWT({ ...payload, version: payload.version + 1 })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'bot-keyset+jwt' })
      .sign(other.privateKey);
    await expect(trust.accept(foreign)).rejects.toMatchObject({ code: 'KEY_SET_UNSIGNED' });
    const [header, , signature] = newer.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...payload, version: 999 })).toString('base64url')}.${signature}`;
    await expect(trust.accept(tampered)).rejects.toMatchObject({ code: 'KEY_SET_UNSIGNED' });
    expect(trust.keySet).toBe(newer);
  });
});

describe('revocation without the root', () => {
  it('a forged lease_revoked is ignored; a revocation signed by a key of the set makes the agent replace its lease', async () => {
    const owner = await createBotOwner(server);
    const client = createBotClient({
      serverUrl: server.url,
      trustRoot: server.trustRoot,
      accessKey: owner.accessKey,
      hwid: owner.hwid,
      version: '1.0.0',
    });
    clients.push(client);
    const errors: Error[] = [];
    const renewed: VerifiedLease[] = [];
    client.on('error', (error) => errors.push(error));
    client.on('leaseRenewed', (lease) => renewed.push(lease));
    await client.connect();
    const held = client.lease as VerifiedLease;

    // What a fake platform (or anyone on the socket) could send: a statement signed by its own key.
    const forger = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const forged = await new SignJWT({ revokedKid: held.kid, revokedAt: Math.floor(Date.now() / 1000) })
      .setProtectedHeader({ alg: 'EdDSA', kid: held.kid, typ: KEY_REVOCATION_TYPE })
      .sign(forger.privateKey);
    await announce(server.ctx, 'signingKey.revoked', { kid: held.kid, statement: forged });
    await vi.waitFor(() =>
      expect(errors.map((error) => (error as { code?: string }).code)).toContain('REVOCATION_INVALID'),
    );
    expect(renewed).toEqual([]);
    expect((await client.checkLease()).kid).toBe(held.kid);

    await revokeKey(server.ctx, { kid: held.kid, actor: SYSTEM });
    await vi.waitFor(() => expect(renewed).toHaveLength(1));
    expect(renewed[0]?.kid).not.toBe(held.kid);
    expect(client.isConnected).toBe(true);
  });
});

describe('updates', () => {
  async function manifest(fields: Partial<ReleaseManifest>): Promise<string> {
    const signer = await currentSigner(server.ctx, 'release');
    const content: ReleaseManifest = {
      releaseId: 'r',
      version: '3.0.0',
      channel: 'stable',
      size: 1,
      sha256: '0'.repeat(64),
      url: `${server.url}/api/build`,
      minAgentVersion: null,
      rollback: false,
      pageUrl: `${server.url}/telechargement`,
      ...fields,
    };
    return new SignJWT({ ...content })
      .setProtectedHeader({ alg: 'EdDSA', kid: signer.kid, typ: RELEASE_MANIFEST_TYPE })
      .setExpirationTime('10m')
      .sign(signer.privateKey);
  }
  const offer = async (fields: Partial<ReleaseManifest>) => ({
    version: fields.version ?? '3.0.0',
    channel: 'stable' as const,
    notes: '',
    pageUrl: `${server.url}/telechargement`,
    manifest: await manifest(fields),
    rollback: fields.rollback ?? false,
  });

  it('refuses a manifest older than the running or the highest trusted version unless a signed rollback names the running one', async () => {
    const trust = trustOf();
    const told: string[] = [];
    const updates = new AgentUpdates({
      keys: () => trust.keysFor('release'),
      refreshKeys: () => trust.refresh(),
      now: Date.now,
      runningVersion: '2.0.0',
      highestTrustedVersion: '2.5.0',
      onTrustedVersion: (version) => told.push(version),
      defer: async () => ({ until: '' }),
    });
    const refused = (fields: Partial<ReleaseManifest>) =>
      expect(offer(fields).then((update) => updates.accept(update))).rejects;
    await refused({ version: '1.9.0' }).toMatchObject({ code: 'MANIFEST_OLDER' });
    await refused({ version: '2.4.0' }).toMatchObject({ code: 'MANIFEST_OLDER' });
    await refused({ version: '1.9.0', rollback: true, rollbackFrom: '1.0.0' }).toMatchObject({
      code: 'MANIFEST_OLDER',
    });
    await refused({ version: '3.0.0', url: 'http://bots.example.fr/build' }).toMatchObject({
      code: 'MANIFEST_INSECURE_URL',
    });
    expect(told).toEqual([]);

    const back = await updates.accept(
      await offer({ version: '1.9.0', rollback: true, rollbackFrom: '2.0.0' }),
    );
    expect(back.version).toBe('1.9.0');
    const next = await updates.accept(await offer({ version: '3.0.0' }));
    expect(next.version).toBe('3.0.0');
    expect(told).toEqual(['3.0.0']);
    expect(updates.highestTrustedVersion).toBe('3.0.0');
    expect(decodeProtectedHeader(next.manifest as string).typ).toBe(RELEASE_MANIFEST_TYPE);
  });
});

describe('the staff alert', () => {
  it('staff who chose it are told from 14 days before the key set expires, with the command that renews it', async () => {
    const call = apiClient(server);
    const staff = await server.createUser({ permissions: ['can_manageSettings'] });
    const chosen = { ...DEFAULT_FLEET_ALERT_PREFERENCES, keySetExpiring: true };
    expect((await call('PUT', '/me/alerts/fleet', chosen, staff.token)).status).toBe(200);
    const ctx = server.ctx;
    const expiresAt = (await findCurrentKeySet(ctx))?.expiresAt.getTime() as number;
    const titles = async () =>
      (await call<NotificationsAnswer>('GET', '/me/notifications', undefined, staff.token)).body.data.map(
        (notification) => `${notification.title} ${notification.body}`,
      );
    await evaluateAlerts(ctx, new Date(expiresAt - 15 * DAY));
    await evaluateAlerts(ctx, new Date(expiresAt - 15 * DAY + 3_600_000));
    expect(await titles()).toEqual([]);
    await evaluateAlerts(ctx, new Date(expiresAt - 13 * DAY));
    await evaluateAlerts(ctx, new Date(expiresAt - 13 * DAY + 3_600_000));
    const told = await titles();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/Le jeu de clés des bots expire dans 13 jours/);
    expect(told[0]).toContain('npm run keys:rotate -- --root-key');
  });
});

describe('the staff alert by default (issue 43)', () => {
  it('reaches every holder of can_manageSettings who never chose fleet alerts, in-app, and by e-mail when their channels say so', async () => {
    const call = apiClient(server);
    const ctx = server.ctx;
    const silent = await server.createUser({ permissions: ['can_manageSettings'] });
    const mailed = await server.createUser({ permissions: ['can_manageSettings'] });
    const channels = { ...DEFAULT_ALERT_PREFERENCES, channels: { inApp: true, email: true, discord: false } };
    expect((await call('PUT', '/me/alerts', channels, mailed.token)).status).toBe(200);
    const customer = await server.createUser();
    const expiresAt = (await findCurrentKeySet(ctx))?.expiresAt.getTime() as number;
    const titles = async (token: string) =>
      (await call<NotificationsAnswer>('GET', '/me/notifications', undefined, token)).body.data.map(
        (notification) => notification.title,
      );
    await evaluateAlerts(ctx, new Date(expiresAt - 12 * DAY));
    await evaluateAlerts(ctx, new Date(expiresAt - 12 * DAY + 3_600_000));
    expect(await titles(silent.token)).toContainEqual(
      expect.stringMatching(/Le jeu de clés des bots expire dans/),
    );
    expect(await titles(mailed.token)).toContainEqual(
      expect.stringMatching(/Le jeu de clés des bots expire dans/),
    );
    expect(await titles(customer.token)).toEqual([]);
    expect((await server.mail.waitFor({ to: mailed.user.email })).subject).toMatch(/jeu de clés/);
  });
});

describe('a public installation', () => {
  it('refuses to start without a key set signed by a root, naming the two commands', async () => {
    const { database, dispose } = await createTestDatabase();
    const config = loadConfig({
      PORT: '3999',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://bots.example.fr',
      PAYMENT_PROVIDER: 'sandbox',
      DATA_DIR: server.ctx.config.dataDir,
      LOG_LEVEL: 'silent',
    });
    try {
      await expect(buildApp({ config, database, skipMigrations: true })).rejects.toThrow(
        /Installation publique incomplète[\s\S]*Aucun jeu de clés signé par une clé racine[\s\S]*npm run keys:root[\s\S]*npm run keys:rotate -- --root-key/,
      );
    } finally {
      await dispose();
    }
  });

  it('counts a set signed by a development root (a trial’s data copied to a public host) as none', async () => {
    const problems = await keySetProblems(server.ctx, {
      installation: { isLoopback: false, problems: [] },
    });
    expect(problems).toEqual([expect.stringMatching(/racine de développement[\s\S]*npm run keys:root/)]);
  });
});
