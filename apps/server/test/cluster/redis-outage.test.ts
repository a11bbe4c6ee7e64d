import type { BotState } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, TEST_PASSWORD, type TestServer } from '../harness.ts';
import {
  account,
  collect,
  connectAndAuthenticate,
  createBotOwner,
  type TestSocket,
} from '../helpers/realtime.ts';
import { type InProcessCluster, startInProcessCluster } from './in-process-cluster.ts';

let cluster: InProcessCluster;
let nodeA: TestServer;
let nodeB: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  cluster = await startInProcessCluster({
    nodes: 2,
    realtime: { adminFlushMs: 100, offlineTimeoutMs: 60_000 },
  });
  [nodeA, nodeB] = cluster.nodes as [TestServer, TestServer];
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await cluster?.close();
});

async function authenticated(node: TestServer, payload: Parameters<typeof connectAndAuthenticate>[1]) {
  const { socket, ack } = await connectAndAuthenticate(node, payload);
  sockets.push(socket);
  expect(ack).toEqual({ ok: true });
  return socket;
}

it('Redis down: HTTP and each node’s own sockets keep working; cross-node delivery resumes once it is back', async () => {
  const staff = await nodeA.createUser({ permissions: ['can_manageMap'] });
  const owner = await createBotOwner(nodeA);
  const name = owner.accounts[0]!;
  const bot = await authenticated(nodeA, { type: 'bot', token: owner.botToken, hwid: owner.hwid });
  const ownerOnA = await authenticated(nodeA, { type: 'client', token: owner.token, hwid: owner.hwid });
  const adminOnB = await authenticated(nodeB, { type: 'admin', token: staff.token });
  const ownerStates = collect<BotState>(ownerOnA, 'bot_update');
  const adminStates = collect<BotState[]>(adminOnB, 'bot_update');
  const reportUntil = (level: number, seen: () => boolean) =>
    vi.waitFor(
      () => {
        if (seen()) return;
        bot.emit('bot_update', { accounts: [account(name, { level })] });
        throw new Error(`level ${level} not delivered yet`);
      },
      { timeout: 10_000, interval: 250 },
    );
  await reportUntil(10, () => adminStates.flat().some((state) => state.accounts[0]?.level === 10));

  await cluster.redis.stop();
  for (const node of [nodeA, nodeB]) {
    await vi.waitFor(async () => {
      const ready = await apiClient(node)<{ checks: Record<string, string> }>('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toMatchObject({ database: 'ok', redis: 'degraded' });
    });
    // Sign-ins still work (the rate limits fall back to the node's memory).
    const login = await apiClient(node)('POST', '/auth/login', {
      username: owner.user.username,
      password: TEST_PASSWORD,
    });
    expect(login.status).toBe(200);
  }
  // The bot's owner on the same node still gets every update.
  await reportUntil(20, () => ownerStates.some((state) => state.accounts[0]?.level === 20));
  expect(bot.connected && ownerOnA.connected && adminOnB.connected).toBe(true);

  await cluster.redis.start();
  // Back within seconds: the admin on the other node sees the bot again.
  await reportUntil(30, () => adminStates.flat().some((state) => state.accounts[0]?.level === 30));
  const fleet = await apiClient(nodeB)<{ data: { hwid: string }[] }>(
    'GET',
    `/admin/users-online/bots?q=${owner.hwid}`,
    undefined,
    (await nodeA.createUser({ permissions: ['can_manageUsersOnline'] })).token,
  );
  expect(fleet.body.data.map((entry) => entry.hwid)).toEqual([owner.hwid]);
});
