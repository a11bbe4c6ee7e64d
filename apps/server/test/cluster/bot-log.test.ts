import { type BotClient, createBotClient } from '@bot/bot-agent';
import type { BotLogLine, BotLogLines } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { TestServer } from '../harness.ts';
import { connectAndAuthenticate, createBotOwner, type TestSocket } from '../helpers/realtime.ts';
import { type InProcessCluster, startInProcessCluster } from './in-process-cluster.ts';

let cluster: InProcessCluster;
let nodeA: TestServer;
let nodeB: TestServer;
const sockets: TestSocket[] = [];
const clients: BotClient[] = [];

beforeAll(async () => {
  cluster = await startInProcessCluster({ nodes: 2 });
  [nodeA, nodeB] = cluster.nodes as [TestServer, TestServer];
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  for (const socket of sockets) socket.disconnect();
  await cluster?.close();
});

it('staff read on node A the log of a bot held by node B, which stops streaming when they leave', async () => {
  const owner = await createBotOwner(nodeA);
  const staff = await nodeA.createUser({ permissions: ['can_manageUsers'] });
  const client = createBotClient({
    serverUrl: nodeB.url,
    trustRoot: nodeB.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
  });
  clients.push(client);
  await client.connect();
  client.log.info('avant la lecture');

  const { socket, ack } = await connectAndAuthenticate(nodeA, {
    type: 'log',
    token: staff.token,
    hwid: owner.hwid,
  });
  expect(ack).toEqual({ ok: true });
  sockets.push(socket);
  const received: BotLogLine[] = [];
  socket.on('bot_log', (batch: BotLogLines) => received.push(...batch.lines));
  await vi.waitFor(() => expect(received.map((line) => line.message)).toEqual(['avant la lecture']));
  client.log.warn('pendant la lecture');
  await vi.waitFor(() => expect(received.at(-1)?.message).toBe('pendant la lecture'));

  // Gone from node A: node B learns it from the shared audience and tells the agent to stop.
  expect(client.log.isStreaming).toBe(true);
  socket.disconnect();
  await vi.waitFor(() => expect(client.log.isStreaming).toBe(false), { timeout: 10_000 });

  // Read again from node B: what the agent wrote meanwhile comes first.
  client.log.info('pendant l’absence');
  const again = await connectAndAuthenticate(nodeB, { type: 'log', token: owner.token, hwid: owner.hwid });
  sockets.push(again.socket);
  const tail: BotLogLine[] = [];
  again.socket.on('bot_log', (batch: BotLogLines) => tail.push(...batch.lines));
  await vi.waitFor(() => expect(tail.map((line) => line.message)).toEqual(['pendant l’absence']));
});
