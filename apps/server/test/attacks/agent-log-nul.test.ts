import type { BotLogLine, SocketAck } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';
import { connectAndAuthenticate, createBotOwner, type TestSocket, waitFor } from '../helpers/realtime.ts';

/**
 * Attack 2 (acknowledgements): a log batch answered `{ok: true}` must be kept. A malicious agent
 * puts a NUL character (U+0000, which a PostgreSQL text column refuses) in one line of a batch: the
 * line is refused alone, or kept cleaned; the other lines are kept, and the answer says the truth.
 */
let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

it('a NUL character in one log line neither loses the batch’s other lines nor is answered ok while dropped', async () => {
  const owner = await createBotOwner(server);
  const agent = await connectAndAuthenticate(server, {
    type: 'bot',
    token: owner.botToken,
    hwid: owner.hwid,
  });
  sockets.push(agent.socket);
  const started = waitFor(agent.socket, 'bot_log_start');
  const journal = await connectAndAuthenticate(server, { type: 'log', token: owner.token, hwid: owner.hwid });
  sockets.push(journal.socket);
  await started;
  const time = new Date().toISOString();
  const answer: SocketAck = await agent.socket.timeout(5_000).emitWithAck('bot_log', {
    lines: [
      { id: 'nul-1', level: 'info', time, message: 'avant' },
      { id: 'nul-2', level: 'info', time, message: 'nul \u0000 ici' },
      { id: 'nul-3', level: 'info', time, message: 'apres' },
    ],
    backlog: true,
  });
  const read = () =>
    apiClient(server)<{ data: BotLogLine[] }>('GET', '/me/bot/log', undefined, owner.token).then((got) =>
      got.body.data.map((kept) => kept.message),
    );
  await vi.waitFor(
    async () =>
      expect(await read(), JSON.stringify(answer)).toEqual(expect.arrayContaining(['avant', 'apres'])),
    {
      timeout: 3_000,
    },
  );
  const kept = await read();
  if (answer.ok) expect(kept).toHaveLength(3);
  // Lines refused alone answer their own code since the docs-gaps change (BOT_LOG_LINES_REFUSED).
  else
    expect(answer).toMatchObject({
      code: 'BOT_LOG_LINES_REFUSED',
      details: { refused: [{ path: 'lines.1.message' }], refusedLines: 1, kept: 2 },
    });
});
