import { type BotClient, createBotClient, runSimulatedCommands, SimulatedBot } from '@bot/bot-agent';
import type { BotCommand, BotCommandDelivery, BotState } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, type TestServer } from '../harness.ts';
import {
  collect,
  connectAndAuthenticate,
  createBotOwner,
  openSocket,
  type TestSocket,
  waitFor,
} from '../helpers/realtime.ts';
import { publishedRoute } from '../helpers/routes.ts';
import { type InProcessCluster, startInProcessCluster } from './in-process-cluster.ts';

let cluster: InProcessCluster;
let nodeA: TestServer;
let nodeB: TestServer;
let nodeC: TestServer;
const sockets: TestSocket[] = [];
const clients: BotClient[] = [];

beforeAll(async () => {
  cluster = await startInProcessCluster({
    nodes: 3,
    realtime: { adminFlushMs: 100, offlineTimeoutMs: 5_000, historyFlushMs: 60_000 },
    commands: { sweepMs: 200 },
  });
  [nodeA, nodeB, nodeC] = cluster.nodes as [TestServer, TestServer, TestServer];
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  for (const socket of sockets) socket.disconnect();
  await cluster?.close();
});

async function watch(node: TestServer, payload: Parameters<typeof connectAndAuthenticate>[1]) {
  const { socket, ack } = await connectAndAuthenticate(node, payload);
  expect(ack).toEqual({ ok: true });
  sockets.push(socket);
  return socket;
}

/** A raw agent on a node, recording the commands handed to it from before it authenticates. */
async function rawAgent(node: TestServer, owner: { hwid: string; botToken: string }) {
  const socket = openSocket(node, { hwid: owner.hwid });
  sockets.push(socket);
  const deliveries = collect<BotCommandDelivery>(socket, 'bot_command');
  await waitFor(socket, 'connect');
  const ack = await socket
    .timeout(5_000)
    .emitWithAck('authenticate', { type: 'bot', token: owner.botToken, hwid: owner.hwid });
  expect(ack).toEqual({ ok: true });
  return { socket, deliveries };
}

const reached = (socket: TestSocket, id: string, state: string) =>
  waitFor<BotCommand>(socket, 'bot_command_update', (update) => update.id === id && update.state === state);

it('a configuration staff push on node A reaches the bot on node B, and A sees it succeed live', async () => {
  const owner = await createBotOwner(nodeA, { accounts: ['Clu-Cmd-One'] });
  const staff = await nodeA.createUser({ permissions: ['can_manageMap'] });
  const staffSocket = await watch(nodeA, { type: 'admin', token: staff.token });
  const ownerSocket = await watch(nodeC, { type: 'client', token: owner.token, hwid: owner.hwid });

  const client = createBotClient({
    serverUrl: nodeB.url,
    trustRoot: nodeB.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
  });
  clients.push(client);
  const world = new SimulatedBot(owner.hwid, owner.accounts);
  runSimulatedCommands(client, world);
  await client.connect();

  const staffSees = collect<BotCommand>(staffSocket, 'bot_command_update');
  const ownerSees = collect<BotCommand>(ownerSocket, 'bot_command_update');
  const routeId = await publishedRoute(nodeA, 'Route du cluster');
  const sent = await apiClient(nodeA)<{ data: BotCommand }>(
    'POST',
    `/admin/bots/${owner.hwid}/commands`,
    { kind: 'configure', payload: { routeId } },
    staff.token,
  );
  // The bot is online: handed over in the issuance's own transaction, by the node holding its
  // socket, with no transaction and no announcement of its own for `sent` (decision 013).
  expect(sent).toMatchObject({ status: 201, body: { data: { state: 'sent' } } });
  const statesOf = (updates: BotCommand[]) => updates.map((update) => update.state);
  await vi.waitFor(() => {
    expect(statesOf(staffSees)).toEqual(['sent', 'acknowledged', 'succeeded']);
    expect(statesOf(ownerSees)).toEqual(['sent', 'acknowledged', 'succeeded']);
  });
  expect(staffSees.every((update) => update.issuer.username === staff.user.username)).toBe(true);
  expect(ownerSees.every((update) => update.issuer.username === null)).toBe(true);
  expect(world.tick().accounts[0]?.routeId).toBe(routeId);
});

it('a command handed to the bot on B and not acknowledged is handed once more when it moves to C', async () => {
  const owner = await createBotOwner(nodeA, { accounts: ['Clu-Cmd-Two'] });
  const watcher = await watch(nodeA, { type: 'client', token: owner.token, hwid: owner.hwid });
  const onB = await rawAgent(nodeB, owner);

  const sent = await apiClient(nodeA)<{ data: BotCommand }>(
    'POST',
    '/me/bot/commands',
    { kind: 'pause' },
    owner.token,
  );
  const { id } = sent.body.data;
  await vi.waitFor(() => expect(onB.deliveries).toEqual([{ id, kind: 'pause', payload: {} }]));

  // The bot moves to C before acknowledging: still `sent`, handed over there once.
  const offline = waitFor<BotState>(watcher, 'bot_update', (state) => !state.online);
  onB.socket.disconnect();
  await offline;
  const listed = await apiClient(nodeC)<{ data: BotCommand[] }>(
    'GET',
    '/me/bot/commands',
    undefined,
    owner.token,
  );
  expect(listed.body.data[0]).toMatchObject({ id, state: 'sent' });
  const onC = await rawAgent(nodeC, owner);
  await vi.waitFor(() => expect(onC.deliveries).toEqual([{ id, kind: 'pause', payload: {} }]));

  const acknowledged = reached(watcher, id, 'acknowledged');
  onC.socket.emit('bot_command_ack', { id });
  await acknowledged;
  const succeeded = reached(watcher, id, 'succeeded');
  onC.socket.emit('bot_command_result', { id, ok: true });
  await succeeded;
  expect(onB.deliveries).toHaveLength(1);
  expect(onC.deliveries).toHaveLength(1);
});
