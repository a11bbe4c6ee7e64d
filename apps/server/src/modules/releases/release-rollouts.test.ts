import { createHash } from 'node:crypto';
import {
  AgentUpdates,
  type BotClient,
  createBotClient,
  SimulatedBot,
  UpdateError,
  type VerifiedUpdate,
} from '@bot/bot-agent';
import type { PublicJwks, Release, ReleaseChannel } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { createBotOwner } from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { evaluateAlerts } from '../alerts/index.ts';
import { auditLog } from '../audit/index.ts';
import { signLease } from '../licensing/index.ts';
import { cancelMaintenanceWindow, createMaintenanceWindow } from '../maintenance-windows/index.ts';
import { updateSettings } from '../settings/index.ts';
import { checkRollouts } from './release-health.ts';
import { advanceRollouts, changeRollout, rolloutBucket } from './release-rollouts.ts';
import { createRelease, publishRelease, storeReleasePart } from './releases.service.ts';
import { agentReleaseParts, agentReleases } from './releases.table.ts';

let server: TestServer;
let staff: TestUser;
const clients: BotClient[] = [];
const SYSTEM = { id: null, username: null, ip: null };

beforeAll(async () => {
  // Many agents open sessions from this one address.
  server = await startTestServer({ rateLimits: { botSession: { max: 10_000, windowMs: 60_000 } } });
  staff = await server.createUser({ permissions: ['can_manageSettings', 'can_manageAudit'] });
  await updateSettings(server.ctx, { patch: { rolloutHaltMinBots: 3 }, actor: SYSTEM });
  const chosen = await apiClient(server)(
    'PUT',
    '/me/alerts/fleet',
    {
      fleetErrors: false,
      fleetErrorPercent: 20,
      paymentWebhooks: false,
      mailBacklog: false,
      releaseHalted: true,
    },
    staff.token,
  );
  expect(chosen.status).toBe(200);
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  await server.close();
});

/** A build published through the services (the releases page is covered elsewhere). */
async function publish(
  version: string,
  channel: ReleaseChannel = 'stable',
  bytes = Buffer.from(`build ${version}`),
) {
  const { ctx } = server;
  const draft = await createRelease(ctx, {
    version,
    channel,
    notes: '',
    fileName: `bot-${version}.zip`,
    size: bytes.length,
    actor: SYSTEM,
  });
  await storeReleasePart(ctx, { id: draft.id, index: 0, bytes });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return publishRelease(ctx, { id: draft.id, parts: 1, sha256, actor: SYSTEM });
}

const complete = (release: Release) =>
  changeRollout(server.ctx, { id: release.id, percent: 100, actor: SYSTEM });

/** The SDK of a bot running `version`, its accounts reporting (a broken build: all in error). */
async function runningBot(version: string, options: { failing?: boolean } = {}) {
  const owner = await createBotOwner(server, { version });
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version,
  });
  clients.push(client);
  await client.connect();
  const world = new SimulatedBot(owner.hwid, owner.accounts, options);
  client.report(world.tick());
  return { owner, client };
}

async function waitOnline(count: number, version: string) {
  await vi.waitFor(async () => {
    const online = (await server.ctx.live.onlineBots()).filter((bot) => bot.version === version);
    expect(online).toHaveLength(count);
  });
}

describe('staged rollouts', () => {
  it('offers a new build to a stable share of PCs, which only grows as the share is raised', async () => {
    const release = await publish('2.0.0');
    expect(release.rollout).toMatchObject({ state: 'rolling', percent: 10 });
    const hwids = Array.from({ length: 300 }, (_, index) => `HW-share-${index}`);
    const offered = (percent: number) => hwids.filter((hwid) => rolloutBucket(release.id, hwid) < percent);
    // About a tenth, the same answer every time (a hash of the release and the PC).
    expect(offered(10).length).toBeGreaterThan(15);
    expect(offered(10).length).toBeLessThan(50);
    expect(hwids.map((hwid) => rolloutBucket(release.id, hwid))).toEqual(
      hwids.map((hwid) => rolloutBucket(release.id, hwid)),
    );
    for (const hwid of offered(10)) expect(offered(50)).toContain(hwid);

    // The agents are told accordingly: in the share, the update; outside, nothing.
    const inside = await createBotOwner(server, { version: '1.0.0' });
    const agentOf = (owner: typeof inside) =>
      createBotClient({
        serverUrl: server.url,
        trustRoot: server.trustRoot,
        accessKey: owner.accessKey,
        hwid: owner.hwid,
        version: '1.0.0',
      });
    const firstIn = rolloutBucket(release.id, inside.hwid) < 10;
    const client = agentOf(inside);
    await client.openSession();
    expect(client.update?.version ?? null).toBe(firstIn ? '2.0.0' : null);

    // Raised to 100 %: everyone; the steps rise by themselves when due.
    const stepped = await changeRollout(server.ctx, {
      id: release.id,
      steps: [
        { percent: 50, afterHours: 2 },
        { percent: 100, afterHours: 24 },
      ],
      actor: SYSTEM,
    });
    expect(stepped.rollout.percent).toBe(10);
    expect(await advanceRollouts(server.ctx, new Date(Date.now() + 3_600_000))).toBe(0);
    expect(await advanceRollouts(server.ctx, new Date(Date.now() + 2 * 3_600_000 + 1_000))).toBe(1);
    const [row] = await server.ctx.db.select().from(agentReleases).where(eq(agentReleases.id, release.id));
    expect(row).toMatchObject({ rolloutPercent: 50, rolloutState: 'rolling' });
    await complete(release);
    const again = agentOf(inside);
    await again.openSession();
    expect(again.update?.version).toBe('2.0.0');
  });

  it('halts itself when the new version fares worse than the previous one, not when it is healthy', async () => {
    const previous = await publish('3.0.0');
    await complete(previous);
    for (let index = 0; index < 3; index += 1) await runningBot('3.0.0');
    const healthy = await publish('3.1.0');
    for (let index = 0; index < 3; index += 1) await runningBot('3.1.0');
    await waitOnline(3, '3.1.0');
    await waitOnline(3, '3.0.0');
    expect(await checkRollouts(server.ctx)).toBe(0);
    await complete(healthy);

    const broken = await publish('3.2.0');
    for (let index = 0; index < 3; index += 1) await runningBot('3.2.0', { failing: true });
    await waitOnline(3, '3.2.0');
    expect(await checkRollouts(server.ctx)).toBe(1);
    const [row] = await server.ctx.db.select().from(agentReleases).where(eq(agentReleases.id, broken.id));
    expect(row?.rolloutState).toBe('halted');
    expect(row?.rolloutHalt).toMatchObject({ baselineVersion: '3.1.0', releaseBots: 3, baselineBots: 3 });
    expect(row?.rolloutHalt?.figures.find((figure) => figure.name === 'errorShare')).toEqual({
      name: 'errorShare',
      release: 100,
      baseline: 0,
      exceeded: true,
    });
    // A halted build is offered to nobody; staff see why; the halt is audited.
    const fresh = await createBotOwner(server, { version: '3.1.0' });
    const agent = createBotClient({
      serverUrl: server.url,
      trustRoot: server.trustRoot,
      accessKey: fresh.accessKey,
      hwid: fresh.hwid,
      version: '3.1.0',
    });
    await agent.openSession();
    expect(agent.update).toBeNull();
    const audit = await server.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'release.halt'));
    expect(audit.map((entry) => entry.targetLabel)).toContain('3.2.0 (stable)');
    // Staff who chose the fleet alert are told, with the figure that stopped it, even during a
    // maintenance window (a halted rollout is about a build, not the platform).
    const window = await createMaintenanceWindow(server.ctx, {
      window: {
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        message: 'Migration',
        scope: 'all',
      },
      actor: { id: staff.user.id, username: staff.user.username, ip: null },
    });
    await evaluateAlerts(server.ctx);
    await cancelMaintenanceWindow(server.ctx, {
      id: window.id,
      actor: { id: staff.user.id, username: staff.user.username, ip: null },
    });
    const told = await apiClient(server)<{ data: { title: string; body: string }[] }>(
      'GET',
      '/me/notifications',
      undefined,
      staff.token,
    );
    const alert = told.body.data.find((entry) => entry.title === 'Déploiement de la version 3.2.0 arrêté');
    expect(alert?.body).toContain('Comptes de jeu en erreur (%) : 100 contre 0');
  });

  it('counts the crashes agents report against their version', async () => {
    const release = await publish('4.0.0-beta.1', 'beta');
    await changeRollout(server.ctx, { id: release.id, percent: 50, actor: SYSTEM });
    for (let index = 0; index < 3; index += 1) {
      const owner = await createBotOwner(server, { version: '4.0.0-beta.1' });
      const client = createBotClient({
        serverUrl: server.url,
        trustRoot: server.trustRoot,
        accessKey: owner.accessKey,
        hwid: owner.hwid,
        version: '4.0.0-beta.1',
        lastCrash: {
          version: '4.0.0-beta.1',
          at: new Date().toISOString(),
          message: 'Accès mémoire invalide',
        },
      });
      clients.push(client);
      await client.openSession();
      await client.openSession(); // told once, not with every session
    }
    const halted = await checkRollouts(server.ctx);
    const [row] = await server.ctx.db.select().from(agentReleases).where(eq(agentReleases.id, release.id));
    expect(halted).toBe(1);
    expect(row?.rolloutHalt?.figures.find((figure) => figure.name === 'crashesPerBot')).toMatchObject({
      release: 1,
      exceeded: true,
    });
  });
});

describe('withdrawn builds and signed manifests', () => {
  it('a yanked build is no longer offered and its agents are told at once to go back', async () => {
    const good = await publish('5.0.0');
    await complete(good);
    const bad = await publish('5.1.0');
    await complete(bad);
    const { client } = await runningBot('5.1.0');
    // An agent offered the build before it was withdrawn holds a signed link to it.
    const offered = await createBotOwner(server, { version: '5.0.1' });
    const before = createBotClient({
      serverUrl: server.url,
      trustRoot: server.trustRoot,
      accessKey: offered.accessKey,
      hwid: offered.hwid,
      version: '5.0.1',
    });
    await before.openSession();
    const heldLink = before.update?.verified.url ?? '';
    expect(before.update?.version).toBe('5.1.0');
    const toldBack = new Promise<VerifiedUpdate>((resolve) => client.on('updateAvailable', resolve));
    const yanked = await apiClient(server)<{ data: Release }>(
      'POST',
      `/admin/releases/${bad.id}/yank`,
      { reason: 'Plante au démarrage sous Windows 10' },
      staff.token,
    );
    expect(yanked.status).toBe(200);
    expect(yanked.body.data.rollout).toMatchObject({
      state: 'yanked',
      yankReason: 'Plante au démarrage sous Windows 10',
    });
    const update = await toldBack;
    expect(update).toMatchObject({ version: '5.0.0', rollback: true });
    expect(update.verified).toMatchObject({ version: '5.0.0', rollback: true });
    expect((await client.downloadUpdate()).toString()).toBe('build 5.0.0');
    // The link handed out before the withdrawal no longer brings the build.
    const withdrawn = await fetch(heldLink);
    expect(withdrawn.status).toBe(410);
    await expect(before.downloadUpdate()).rejects.toMatchObject({ code: 'UPDATE_DOWNLOAD_FAILED' });
    // Withdrawn once; a second time is refused.
    const again = await apiClient(server)(
      'POST',
      `/admin/releases/${bad.id}/yank`,
      { reason: 'encore' },
      staff.token,
    );
    expect(again.status).toBe(409);

    const back = await apiClient(server)(
      'PUT',
      `/admin/releases/${bad.id}/rollout`,
      { percent: 100 },
      staff.token,
    );
    expect(back.status).toBe(409);
    expect(back.body).toMatchObject({ code: 'RELEASE_YANKED' });
    expect(
      await apiClient(server)('PUT', `/admin/releases/${newId()}/rollout`, { percent: 100 }, staff.token),
    ).toMatchObject({ status: 404, body: { code: 'RELEASE_NOT_FOUND' } });
  });

  it('the SDK refuses a manifest that does not verify and bytes that do not match it', async () => {
    const release = await publish('6.0.0');
    await complete(release);
    const owner = await createBotOwner(server, { version: '5.9.0' });
    const client = createBotClient({
      serverUrl: server.url,
      trustRoot: server.trustRoot,
      accessKey: owner.accessKey,
      hwid: owner.hwid,
      version: '5.9.0',
    });
    clients.push(client);
    const refusals: Error[] = [];
    client.on('error', (error) => refusals.push(error));
    const session = await client.openSession();
    const manifest = session.update?.manifest ?? '';
    expect(client.update?.verified.sha256).toBe(createHash('sha256').update('build 6.0.0').digest('hex'));

    // The SDK's verifier against the platform's published keys: a payload changed under its
    // signature, a manifest signed by the lease key, an expired one are all refused.
    const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as PublicJwks;
    const verifier = (now = Date.now()) =>
      new AgentUpdates({
        keys: () => jwks,
        refreshKeys: async () => jwks,
        now: () => now,
        runningVersion: '5.9.0',
        defer: async () => ({ until: '' }),
      });
    const offer = session.update!;
    const [header, payload, signature] = manifest.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, size: 1 })).toString('base64url')}.${signature}`;
    await expect(verifier().accept({ ...offer, manifest: forged })).rejects.toMatchObject({
      code: 'MANIFEST_INVALID',
    });
    const leaseSigned = await signLease(server.ctx, {
      content: claims,
      issuedAt: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
    });
    await expect(verifier().accept({ ...offer, manifest: leaseSigned })).rejects.toMatchObject({
      code: 'MANIFEST_KEY_UNKNOWN',
    });
    await expect(verifier(Date.now() + 2 * 24 * 3_600_000).accept(offer)).rejects.toMatchObject({
      code: 'MANIFEST_EXPIRED',
    });
    await expect(verifier().accept(offer)).resolves.toMatchObject({ version: '6.0.0' });
    // What the agent acts on comes from the signed manifest, not from the offer around it.
    const relabelled = await verifier().accept({
      ...offer,
      rollback: true,
      pageUrl: 'https://evil.example/',
    });
    expect(relabelled).toMatchObject({ rollback: false, pageUrl: `${server.url}/started` });
    expect(refusals).toEqual([]);

    // The stored bytes changed after publication (same size): the download is refused.
    await server.ctx.db
      .update(agentReleaseParts)
      .set({ bytes: Buffer.from('build 6.6.6') })
      .where(eq(agentReleaseParts.releaseId, release.id));
    await expect(client.downloadUpdate()).rejects.toBeInstanceOf(UpdateError);
    await expect(client.downloadUpdate()).rejects.toMatchObject({ code: 'UPDATE_CHECKSUM_MISMATCH' });

    // Deferred: staff see until when.
    const deferred = await client.deferUpdate(30);
    const adoption = await apiClient(server)<{ data: { deferrals: { hwid: string; until: string }[] } }>(
      'GET',
      '/admin/releases/adoption',
      undefined,
      staff.token,
    );
    expect(adoption.body.data.deferrals).toContainEqual(
      expect.objectContaining({ hwid: owner.hwid, until: deferred.until }),
    );
  });
});
