import { type BotApiError, type BotClient, createBotClient, type VerifiedLease } from '@bot/bot-agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  connectOwnerBot,
  createBotOwner,
  newHwid,
  type TestSocket,
  whitelist,
} from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { grantPermission } from '../access/index.ts';
import { banUser } from '../admin-users/index.ts';
import { updateSettings } from '../settings/index.ts';
import { revokeSigningKey } from './signing-keys.service.ts';

/**
 * Revocation is immediate while the agent is online (issue 33): for each cause the hub sends
 * `lease_revoked` before it closes, and the real SDK drops its lease (`leaseRevoked`) and stops.
 */
let server: TestServer;
const clients: BotClient[] = [];
const sockets: TestSocket[] = [];
const SYSTEM = { id: null, username: 'test', ip: null };

beforeAll(async () => {
  server = await startTestServer({ realtime: { expirySweepMs: 150 } });
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

type Owner = { accessKey: string; hwid: string };

/** The real SDK, connected, with what it told. */
async function runningAgent(on: TestServer, owner: Owner, version = '1.0.0') {
  const client = createBotClient({
    serverUrl: on.url,
    trustRoot: on.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version,
  });
  clients.push(client);
  const told = { revoked: [] as BotApiError[], fatal: [] as BotApiError[], renewed: [] as VerifiedLease[] };
  client.on('leaseRevoked', (error) => told.revoked.push(error));
  client.on('fatal', (error) => told.fatal.push(error));
  client.on('leaseRenewed', (lease) => told.renewed.push(lease));
  await client.connect();
  expect(client.lease).not.toBeNull();
  return { client, told };
}

/** A raw agent socket recording the order of what the hub sends it. */
async function rawAgent(owner: { botToken: string; hwid: string }) {
  const { socket, ack } = await connectOwnerBot(server, owner);
  sockets.push(socket);
  expect(ack).toMatchObject({ ok: true });
  const order: string[] = [];
  socket.on('lease_revoked', (body) => order.push(`lease_revoked:${body.code}`));
  socket.on('auth_error', (body) => order.push(`auth_error:${body.code}`));
  return order;
}

async function expectRevoked(agent: Awaited<ReturnType<typeof runningAgent>>, code: string) {
  await vi.waitFor(() => expect(agent.told.revoked).toHaveLength(1));
  expect(agent.told.revoked[0]).toMatchObject({ code });
  expect(agent.told.fatal.map((error) => error.code)).toEqual([code]);
  expect(agent.client.isConnected).toBe(false);
  await expect(agent.client.connect()).rejects.toThrow('client stopped');
}

describe('online revocation reaches the agent at once', () => {
  it('a ban: the agent is told its lease is revoked, then the socket closes', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const owner = await createBotOwner(server);
    const agent = await runningAgent(server, owner);
    const other = await createBotOwner(server);
    const otherAgent = await runningAgent(server, other);
    await banUser(server.ctx, {
      userId: owner.user.id,
      reason: 'test',
      actor: { id: admin.user.id, username: admin.user.username, ip: null },
    });
    await expectRevoked(agent, 'ACCOUNT_BANNED');
    expect(agent.told.revoked[0]?.message).toMatch(/suspendu/);
    // Another customer's agent runs on.
    expect(otherAgent.client.isConnected).toBe(true);
    expect(otherAgent.told.revoked).toEqual([]);
  });

  it('the package ends (the bot permission grant expires): revoked by the expiry sweep', async () => {
    const customer = await server.createUser();
    await grantPermission(server.ctx, {
      id: newId(),
      userId: customer.user.id,
      permission: 'can_useGathering',
      expiresAt: new Date(Date.now() + 2_000),
      source: 'manual',
    });
    await whitelist(server, customer.user.id, ['Ends-Soon']);
    const key = await apiClient(server)<{ data: { accessKey: string } }>(
      'GET',
      '/me/bot-key',
      undefined,
      customer.token,
    );
    const agent = await runningAgent(server, { accessKey: key.body.data.accessKey, hwid: newHwid() });
    expect(agent.client.lease?.claims.entitlements).toEqual(['can_useGathering']);
    await vi.waitFor(() => expect(agent.told.revoked).toHaveLength(1), { timeout: 8_000 });
    await expectRevoked(agent, 'BOT_PERMISSION_REQUIRED');
  });

  it('the minimum version rises above the agent: revoked with the download page, newer agents run on', async () => {
    const old = await createBotOwner(server);
    const current = await createBotOwner(server, { version: '2.0.0' });
    const agent = await runningAgent(server, old, '1.0.0');
    const upToDate = await runningAgent(server, current, '2.0.0');
    const watcher = await createBotOwner(server);
    const order = await rawAgent(watcher); // a raw 1.0.0 socket: what the hub sends, in order
    try {
      await updateSettings(server.ctx, { patch: { minBotVersion: '1.5.0' }, actor: SYSTEM });
      await expectRevoked(agent, 'BOT_VERSION_OUTDATED');
      expect(agent.told.revoked[0]?.message).toContain('1.5.0');
      await vi.waitFor(() => expect(order).toHaveLength(2));
      expect(order).toEqual(['lease_revoked:BOT_VERSION_OUTDATED', 'auth_error:BOT_VERSION_OUTDATED']);
      expect(upToDate.client.isConnected).toBe(true);
      expect(upToDate.told.revoked).toEqual([]);
    } finally {
      await updateSettings(server.ctx, { patch: { minBotVersion: '0.0.0' }, actor: SYSTEM });
    }
  });

  it('a revoked signing key: an online agent replaces the lease it signed at once and runs on', async () => {
    const owner = await createBotOwner(server);
    const agent = await runningAgent(server, owner);
    const before = agent.client.lease as VerifiedLease;
    await revokeSigningKey(server.ctx, { kid: before.kid, actor: SYSTEM });
    await vi.waitFor(() => expect(agent.told.renewed).toHaveLength(1));
    const after = agent.client.lease as VerifiedLease;
    expect(after.kid).not.toBe(before.kid);
    expect(agent.client.isConnected).toBe(true);
    expect(agent.told.revoked).toEqual([]);
    // The revoked key is gone from the agent: the old lease no longer verifies there.
    expect((await agent.client.checkLease()).kid).toBe(after.kid);
  });

  it('a revoked signing key while the platform is busy: the agent keeps running and renews at its retry', async () => {
    // Every agent renews in the same second: one renewal per bot session per second and a half here.
    const busy = await startTestServer({ rateLimits: { leaseRenewal: { max: 1, windowMs: 1_500 } } });
    try {
      const owner = await createBotOwner(busy);
      const retries: (() => void)[] = [];
      const client = createBotClient({
        serverUrl: busy.url,
        trustRoot: busy.trustRoot,
        accessKey: owner.accessKey,
        hwid: owner.hwid,
        version: '1.0.0',
        // The keeper's timers are the test's: a retry runs when the test says so.
        setTimer: (task) => {
          retries.push(task);
          return () => undefined;
        },
      });
      clients.push(client);
      const errors: { code?: string }[] = [];
      const revoked: unknown[] = [];
      client.on('error', (error) => errors.push(error as { code?: string }));
      client.on('leaseRevoked', (error) => revoked.push(error));
      await client.connect();
      await client.renewLease(); // this window's one renewal
      const first = client.lease as VerifiedLease;
      await revokeSigningKey(busy.ctx, { kid: first.kid, actor: SYSTEM });

      await vi.waitFor(() => expect(errors.map((error) => error.code)).toContain('RATE_LIMITED'));
      expect(revoked).toEqual([]);
      expect(client.isConnected).toBe(true);

      // Once the platform has room again, a retry brings a lease signed by the new key.
      await vi.waitFor(
        () => {
          retries.at(-1)?.();
          expect(client.lease?.kid).not.toBe(first.kid);
        },
        { timeout: 10_000, interval: 500 },
      );
      expect(revoked).toEqual([]);
      expect(client.isConnected).toBe(true);
    } finally {
      await busy.close();
    }
  });
});
