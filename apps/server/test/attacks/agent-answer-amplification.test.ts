import type { SocketAck } from '@bot/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.ts';
import { connectAndAuthenticate, createBotOwner, type TestSocket, waitFor } from '../helpers/realtime.ts';

/**
 * Attack 2 (acknowledgements): amplification. A refused message is answered with the fields refused
 * (decision 923); a tiny malformed message must not buy a large answer. Bound asserted here: an
 * answer at most 2 KiB, whatever the message (the socket takes 16 KiB messages, 200 per 10 s).
 */
let server: TestServer;
const sockets: TestSocket[] = [];
const ANSWER_MAX_BYTES = 2_048;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

const sizeOf = (payload: unknown) => Buffer.byteLength(JSON.stringify(payload));

it('a 40-byte malformed report is not answered with kilobytes of refused fields', async () => {
  const owner = await createBotOwner(server);
  const { socket } = await connectAndAuthenticate(server, {
    type: 'bot',
    token: owner.botToken,
    hwid: owner.hwid,
  });
  sockets.push(socket);
  const report = { accounts: Array.from({ length: 8 }, () => ({})) };
  const answer: SocketAck = await socket.timeout(5_000).emitWithAck('bot_update', report as never);
  expect(answer).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
  expect(sizeOf(answer), `${sizeOf(report)} bytes sent`).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
});

it('a 160-byte malformed log batch is not answered with kilobytes of refused fields', async () => {
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
  const batch = { lines: Array.from({ length: 50 }, () => ({})) };
  const answer: SocketAck = await agent.socket.timeout(5_000).emitWithAck('bot_log', batch as never);
  // Lines refused alone answer their own code since the docs-gaps change (BOT_LOG_LINES_REFUSED).
  expect(answer).toMatchObject({ ok: false, code: 'BOT_LOG_LINES_REFUSED' });
  expect(sizeOf(answer), `${sizeOf(batch)} bytes sent`).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
});

it('log lines past the rate are dropped before they are read: a flood of malformed lines costs no validation', async () => {
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
  // The burst (20 lines: config botLog.burst) taken by well-formed lines.
  const burst = {
    lines: Array.from({ length: 20 }, (_, index) => ({ level: 'info', time, message: `ligne ${index}` })),
  };
  expect(await agent.socket.timeout(5_000).emitWithAck('bot_log', burst as never)).toEqual({ ok: true });
  const malformed = { lines: Array.from({ length: 50 }, () => ({})) };
  const answer: SocketAck = await agent.socket.timeout(5_000).emitWithAck('bot_log', malformed as never);
  expect(answer).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
});
