import { type BotClient, createBotClient, type MessageRefusal } from '@bot/bot-agent';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { account, newHwid, whitelist } from '../../../test/helpers/realtime.ts';

/** The SDK tells what the server refused of its messages (decision 923): the `refused` event. */
let server: TestServer;
const clients: BotClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  await server.close();
});

it('tells a refused report, with the code and the field the server named', async () => {
  const owner = await server.createUser({ permissions: ['can_useGathering'] });
  await whitelist(server, owner.user.id, ['Sim-One']);
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
  const refusals: MessageRefusal[] = [];
  client.on('refused', (refusal) => refusals.push(refusal));
  await client.connect();

  expect(client.report({ accounts: [account('Sim-One')] })).toBe(true);
  expect(client.report({ accounts: [account('Sim-One', { level: 5.5 })] })).toBe(true);
  await vi.waitFor(() => expect(refusals).toHaveLength(1));
  expect(refusals[0]).toMatchObject({
    event: 'bot_update',
    code: 'VALIDATION_ERROR',
    details: [{ path: 'accounts.0.level' }],
  });
});
