import { createHash } from 'node:crypto';
import { type BotApiError, createBotClient, SimulatedBot } from '@bot/bot-agent';
import type { AgentUpdate, BotState } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { metricValue } from '../../../test/helpers/metrics.ts';
import {
  connectAndAuthenticate,
  newHwid,
  type TestSocket,
  waitFor,
  whitelist,
} from '../../../test/helpers/realtime.ts';
import { createRelease, publishRelease, storeReleasePart } from '../releases/index.ts';
import { updateSettings } from '../settings/index.ts';

let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ realtime: { adminFlushMs: 100 } });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

async function newOwner(accounts: string[]) {
  const owner = await server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] });
  await whitelist(server, owner.user.id, accounts);
  const key = await apiClient(server)<{ data: { accessKey: string } }>(
    'GET',
    '/me/bot-key',
    undefined,
    owner.token,
  );
  return { ...owner, accessKey: key.body.data.accessKey };
}

it('opens a session, connects, reports the simulated world and stops cleanly', async () => {
  const owner = await newOwner(['Sim-One', 'Sim-Two']);
  const hwid = newHwid();
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid,
    version: '1.4.0',
  });
  await client.connect();
  expect(client.isConnected).toBe(true);
  expect(client.whitelist).toEqual(['Sim-One', 'Sim-Two']);

  const watcher = await connectAndAuthenticate(server, { type: 'client', token: owner.token, hwid });
  sockets.push(watcher.socket);
  const world = new SimulatedBot(hwid, ['Sim-One', 'Sim-Two']);
  const next = waitFor<BotState>(watcher.socket, 'bot_update', (state) => state.accounts.length === 2);
  expect(client.report(world.tick())).toBe(true);
  const state = await next;
  expect(state).toMatchObject({ hwid, online: true, version: '1.4.0', owner: { id: owner.user.id } });
  for (const account of state.accounts) {
    expect(Math.abs(account.position.x)).toBeLessThanOrEqual(40);
    expect(Math.abs(account.position.y)).toBeLessThanOrEqual(40);
  }

  const offline = waitFor<BotState>(watcher.socket, 'bot_update', (s) => !s.online);
  await client.stop();
  await offline;
  expect(client.isConnected).toBe(false);
});

it('reopens a session when the stored one is refused', async () => {
  const owner = await newOwner(['Reuse']);
  const hwid = newHwid();
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid,
    version: '1.0.0',
    session: { token: 'bs_stale', expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
  });
  // Counted from events as the simulator did (it showed -1/500 and 499/500 after restarts): the
  // refused first socket was never authenticated, so it must not count as a disconnection.
  let online = 0;
  client.on('authenticated', () => (online += 1));
  client.on('disconnected', () => (online -= 1));
  await client.connect();
  expect(client.isConnected).toBe(true);
  expect(online).toBe(1);
  await client.stop();
});

it('stops for good when kicked, and fails on a wrong key', async () => {
  const owner = await newOwner(['Kicked']);
  const hwid = newHwid();
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid,
    version: '1.0.0',
  });
  await client.connect();
  const fatal = new Promise<BotApiError>((resolve) => client.on('fatal', resolve));
  const before = await metricValue(server.app, 'bots_online');
  await server.ctx.live.kickBot(hwid);
  expect((await fatal).code).toBe('BOT_KICKED');
  await vi.waitFor(async () => {
    expect(client.isConnected).toBe(false);
    expect(await metricValue(server.app, 'bots_online')).toBe(before - 1);
  });

  const wrong = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: 'bk_wrong_wrong_wrong',
    hwid,
    version: '1.0.0',
  });
  await expect(wrong.connect()).rejects.toMatchObject({ code: 'BOT_KEY_INVALID', status: 401 });
});

it('tells the agent when a newer build of its channel is published', async () => {
  const { ctx } = server;
  const actor = { id: null, username: null, ip: null };
  const file = Buffer.from('agent build 7.1.0-beta.1');
  // Offered to every bot at once (staged rollouts have their own tests, decision 910).
  await updateSettings(ctx, { patch: { releaseRolloutPercent: 100 }, actor });
  const draft = await createRelease(ctx, {
    version: '7.1.0-beta.1',
    channel: 'beta',
    notes: 'Essai',
    fileName: 'a.zip',
    size: file.length,
    actor,
  });
  await storeReleasePart(ctx, { id: draft.id, index: 0, bytes: file });
  await publishRelease(ctx, {
    id: draft.id,
    parts: 1,
    sha256: createHash('sha256').update(file).digest('hex'),
    actor,
  });

  const owner = await newOwner(['Updater']);
  const options = {
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid: newHwid(),
    version: '7.0.0',
  };
  const stable = createBotClient(options);
  await stable.openSession();
  expect(stable.update).toBeNull(); // a stable agent is not offered a beta

  const beta = createBotClient({ ...options, channel: 'beta' });
  const told = new Promise<AgentUpdate>((resolve) => beta.on('updateAvailable', resolve));
  await beta.openSession();
  expect(await told).toMatchObject({ version: '7.1.0-beta.1', channel: 'beta', notes: 'Essai' });
  expect(beta.update?.version).toBe('7.1.0-beta.1');
});
