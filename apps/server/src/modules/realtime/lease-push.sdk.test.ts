import { type BotClient, createBotClient, type VerifiedLease } from '@bot/bot-agent';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { newHwid, whitelist } from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { grantPermission } from '../access/index.ts';

/**
 * What concerns a running agent reaches it at once, with a fresh lease (decision 923): its
 * whitelist, its entitlements. Real server, real SDK.
 */
let server: TestServer;
const clients: BotClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ realtime: { expirySweepMs: 150 } });
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  await server.close();
});

async function connectedAgent(owner: { user: { id: string }; token: string }, accounts: string[]) {
  await whitelist(server, owner.user.id, accounts);
  const key = await apiClient(server)<{ data: { accessKey: string } }>(
    'GET',
    '/me/bot-key',
    undefined,
    owner.token,
  );
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: key.body.data.accessKey,
    hwid: newHwid(),
    version: '1.4.0',
  });
  clients.push(client);
  await client.connect();
  const renewals: VerifiedLease[] = [];
  client.on('leaseRenewed', (lease) => renewals.push(lease));
  const nextRenewal = () =>
    new Promise<VerifiedLease>((resolve) => client.on('leaseRenewed', (lease) => resolve(lease)));
  return { client, renewals, nextRenewal };
}

it('pushes an account the owner takes off the whitelist to the running agent, in a fresh lease', async () => {
  const owner = await server.createUser({ permissions: ['can_useGathering'] });
  const { client, nextRenewal } = await connectedAgent(owner, ['Push-One', 'Push-Two']);
  expect([...client.whitelist].sort()).toEqual(['Push-One', 'Push-Two']);

  const call = apiClient(server);
  const listed = await call<{ data: { id: string; name: string }[] }>(
    'GET',
    '/me/whitelist',
    undefined,
    owner.token,
  );
  const entry = listed.body.data.find((kept) => kept.name === 'Push-Two');
  const renewed = nextRenewal();
  expect((await call('DELETE', `/me/whitelist/${entry?.id}`, undefined, owner.token)).status).toBe(204);
  const lease = await renewed;
  expect(lease.claims.accounts).toEqual(['Push-One']);
  await vi.waitFor(() => expect(client.whitelist).toEqual(['Push-One']));
});

it('pushes an entitlement that expired to the running agent, in a fresh lease', async () => {
  const owner = await server.createUser({ permissions: ['can_useGathering'] });
  await grantPermission(server.app.ctx, {
    id: newId(),
    userId: owner.user.id,
    permission: 'can_useTreasure',
    expiresAt: new Date(Date.now() + 2_000),
    source: 'manual',
  });
  const { client, nextRenewal } = await connectedAgent(owner, ['Push-Three']);
  expect([...client.entitlements].sort()).toEqual(['can_useGathering', 'can_useTreasure']);

  const lease = await nextRenewal();
  expect(lease.claims.entitlements).toEqual(['can_useGathering']);
  expect(client.isConnected).toBe(true);
});
