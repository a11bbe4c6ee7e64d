import { type BotClient, createBotClient, REDACTED } from '@bot/bot-agent';
import type { BotLogLine, BotLogLines } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { connectAndAuthenticate, createBotOwner, type TestSocket } from '../../../test/helpers/realtime.ts';

let server: TestServer;
const sockets: TestSocket[] = [];
const clients: BotClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

async function openJournal(token: string, hwid: string) {
  const { socket, ack } = await connectAndAuthenticate(server, { type: 'log', token, hwid });
  expect(ack).toEqual({ ok: true });
  sockets.push(socket);
  const received: BotLogLine[] = [];
  socket.on('bot_log', (batch: BotLogLines) => received.push(...batch.lines));
  return { socket, received };
}

it('the SDK sends what the journal lacks, then the tail, without its secrets', async () => {
  const owner = await createBotOwner(server);
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
    redact: [/mot de passe : \S+/i],
  });
  clients.push(client);
  await client.connect();
  const lease = client.lease?.token ?? '';
  expect(lease).not.toBe('');

  // Written while nobody reads: kept on the PC only, secrets already gone.
  client.log.info(`clé ${owner.accessKey} chargée`);
  client.log.warn(`bail ${lease}`);
  client.log.error('Mot de passe : hunter2 refusé');
  expect(client.log.recent().map((line) => line.message)).toEqual([
    `clé ${REDACTED} chargée`,
    `bail ${REDACTED}`,
    `${REDACTED} refusé`,
  ]);

  const journal = await openJournal(owner.token, owner.hwid);
  await vi.waitFor(() => expect(journal.received).toHaveLength(3));
  const shown = journal.received.map((line) => line.message).join('\n');
  for (const secret of [owner.accessKey, lease, 'hunter2']) expect(shown).not.toContain(secret);

  // The tail follows; after a reconnection the journal gets only what it missed.
  client.log.info('en route');
  await vi.waitFor(() => expect(journal.received.at(-1)?.message).toBe('en route'));
  const authenticatedAgain = new Promise<void>((resolve) => client.on('authenticated', resolve));
  client.reconnect();
  await authenticatedAgain;
  client.log.info('reconnecté');
  await vi.waitFor(() => expect(journal.received.at(-1)?.message).toBe('reconnecté'));
  expect(journal.received.map((line) => line.message)).toEqual([
    `clé ${REDACTED} chargée`,
    `bail ${REDACTED}`,
    `${REDACTED} refusé`,
    'en route',
    'reconnecté',
  ]);
});

it('an agent that connects while its journal is already open streams (the start comes before its authentication answer)', async () => {
  const owner = await createBotOwner(server);
  // The reader is back first (a server restart: pages reconnect faster than agents).
  const journal = await openJournal(owner.token, owner.hwid);
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
  });
  clients.push(client);
  client.log.info('écrite avant la connexion');
  await client.connect();
  client.log.warn('écrite après la connexion');
  await vi.waitFor(() =>
    expect(journal.received.map((line) => line.message)).toEqual([
      'écrite avant la connexion',
      'écrite après la connexion',
    ]),
  );
});
