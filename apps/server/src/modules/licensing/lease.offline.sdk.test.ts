import { type BotApiError, type BotClient, createBotClient, type VerifiedLease } from '@bot/bot-agent';
import { afterAll, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { createBotOwner, whitelist } from '../../../test/helpers/realtime.ts';

/**
 * Renewal ahead of expiry and the agent's life without its platform (issue 33), with the real
 * server and the real SDK; the SDK's clock and timer are a `ManualClock`, moved hours in one step.
 */
const clients: BotClient[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  for (const client of clients) await client.stop();
  for (const server of servers) await server.close();
});

async function agentOn(server: TestServer, owner: { accessKey: string; hwid: string }) {
  const clock = new ManualClock();
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
    now: clock.now,
    setTimer: clock.setTimer,
  });
  clients.push(client);
  const told = {
    renewed: [] as VerifiedLease[],
    expiring: [] as VerifiedLease[],
    fatal: [] as BotApiError[],
    revoked: [] as BotApiError[],
  };
  client.on('leaseRenewed', (lease) => told.renewed.push(lease));
  client.on('leaseExpiring', (lease) => told.expiring.push(lease));
  client.on('fatal', (error) => told.fatal.push(error));
  client.on('leaseRevoked', (error) => told.revoked.push(error));
  await client.connect();
  const lease = client.lease as VerifiedLease;
  const issuedAt = lease.claims.iat * 1000;
  const renewAt = issuedAt + (lease.expiresAt.getTime() - issuedAt) * 0.8;
  return { client, clock, told, lease, renewAt };
}

it('renews ahead of expiry, at 80 % of the lifetime and not before: client.lease is the fresh one', async () => {
  const server = await startTestServer();
  servers.push(server);
  const owner = await createBotOwner(server, { accounts: ['Renew-One'] });
  const { client, clock, told, lease, renewAt } = await agentOn(server, owner);
  expect(lease.expiresAt.getTime() - lease.claims.iat * 1000).toBe(24 * 3_600_000);
  // The customer whitelists another account meanwhile: the next lease carries it.
  await whitelist(server, owner.user.id, ['Renew-Two']);

  clock.moveTo(renewAt - 60_000); // 19 h 11 min: no timer is due yet
  expect(told.renewed).toEqual([]);
  clock.moveTo(renewAt + 1_000);
  await vi.waitFor(() => expect(told.renewed).toHaveLength(1));
  expect(clock.now()).toBeLessThan(lease.expiresAt.getTime()); // ahead of expiry
  const fresh = client.lease as VerifiedLease;
  expect(fresh).toBe(told.renewed[0]);
  expect(fresh.token).not.toBe(lease.token);
  expect(fresh.claims.accounts).toEqual(['Renew-One', 'Renew-Two']);
  expect(told.expiring).toEqual([]);
  expect(client.isConnected).toBe(true);
});

it('rides out a server stop of 30 s on its lease, warns while it cannot renew, renews once the server is back', async () => {
  const server = await startTestServer({ openDatabaseFromConfig: true });
  servers.push(server);
  const owner = await createBotOwner(server);
  const { client, clock, told, lease, renewAt } = await agentOn(server, owner);

  await server.restart(async () => {
    clock.moveBy(30_000); // 30 s without its platform, as the agent's clock sees it
    expect((await client.checkLease()).token).toBe(lease.token);
    clock.moveTo(renewAt + 1_000); // the renewal falls due while the platform is still away
    await vi.waitFor(() => expect(told.expiring).toHaveLength(1));
    expect(told.expiring[0]?.inGrace).toBe(false);
    expect(told.fatal).toEqual([]);
  });
  // Back: the socket reconnects by itself and the next retry (a minute later) renews.
  await vi.waitFor(() => expect(client.isConnected).toBe(true), { timeout: 15_000 });
  clock.moveBy(60_000);
  await vi.waitFor(() => expect(told.renewed).toHaveLength(1));
  expect(client.lease).toBe(told.renewed[0]);
  expect(told.fatal).toEqual([]);
  expect(told.revoked).toEqual([]);
});

it('without its platform it runs until expiry plus grace, not a second longer, and stops with a clear message', async () => {
  const server = await startTestServer();
  const owner = await createBotOwner(server);
  const { client, clock, told, lease, renewAt } = await agentOn(server, owner);
  await server.close(); // the platform is gone for good
  const stopsAt = lease.stopsAt.getTime();
  expect(stopsAt - lease.expiresAt.getTime()).toBe(24 * 3_600_000);

  clock.moveTo(renewAt + 1_000);
  await vi.waitFor(() => expect(told.expiring).toHaveLength(1));
  expect(told.expiring[0]?.inGrace).toBe(false);

  clock.moveTo(lease.expiresAt.getTime() + 1_000); // past expiry: on its grace period
  await vi.waitFor(() => expect(told.expiring).toHaveLength(2));
  expect(told.expiring[1]?.inGrace).toBe(true);

  clock.moveTo(stopsAt - 1_000);
  await vi.waitFor(() => expect(told.expiring).toHaveLength(3));
  clock.moveTo(stopsAt - 1); // the last millisecond: still running
  expect((await client.checkLease()).inGrace).toBe(true);
  expect(told.fatal).toEqual([]);

  clock.moveTo(stopsAt);
  await vi.waitFor(() => expect(told.fatal).toHaveLength(1));
  expect(told.fatal[0]).toMatchObject({ code: 'LEASE_EXPIRED' });
  expect(told.fatal[0]?.message).toBe(
    'Le bail de licence a expiré (délai de grâce compris) : reconnectez le bot à la plateforme.',
  );
  expect(told.revoked).toEqual([]);
  await expect(client.connect()).rejects.toThrow('client stopped');
});
