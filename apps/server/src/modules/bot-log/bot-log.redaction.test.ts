import { randomBytes } from 'node:crypto';
import {
  type BotLogLine,
  type BotLogLineInput,
  type BotLogLines,
  BOT_LOG_REDACTED as M,
} from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  connectAndAuthenticate,
  createBotOwner,
  openSocket,
  type TestSocket,
  waitFor,
} from '../../../test/helpers/realtime.ts';

let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

type Owner = Awaited<ReturnType<typeof createBotOwner>>;
const call = () => apiClient(server);

/**
 * An owner's agent speaking the protocol itself (not the SDK, whose own redaction would hide the
 * server's), streaming to an open journal. `send` answers what the journal then shows and what the
 * server kept, once both have every line of the batch.
 */
async function streamingAgent() {
  const owner = await createBotOwner(server);
  const agent = openSocket(server, { hwid: owner.hwid });
  sockets.push(agent);
  const started = waitFor(agent, 'bot_log_start');
  await waitFor(agent, 'connect');
  const ack = await agent
    .timeout(5_000)
    .emitWithAck('authenticate', { type: 'bot', token: owner.botToken, hwid: owner.hwid });
  expect(ack).toEqual({ ok: true });
  const journal = await connectAndAuthenticate(server, { type: 'log', token: owner.token, hwid: owner.hwid });
  expect(journal.ack).toEqual({ ok: true });
  sockets.push(journal.socket);
  const received: BotLogLine[] = [];
  journal.socket.on('bot_log', (batch: BotLogLines) => received.push(...batch.lines));
  await started;
  const send = async (messages: string[]) => {
    const from = received.length;
    const lines: BotLogLineInput[] = messages.map((message) => ({
      level: 'info',
      time: new Date().toISOString(),
      message,
    }));
    agent.emit('bot_log', { lines, backlog: true });
    await vi.waitFor(() => expect(received.length).toBe(from + messages.length));
    const kept = await call()<{ data: BotLogLine[] }>('GET', '/me/bot/log', undefined, owner.token);
    return {
      shown: received.slice(from).map((line) => line.message),
      kept: kept.body.data.slice(-messages.length).map((line) => line.message),
    };
  };
  return { owner, send };
}

/** Each line sent, and what must be shown and kept of it. */
async function expectMasked(
  owner: Owner,
  send: (messages: string[]) => Promise<{ shown: string[]; kept: string[] }>,
  cases: [string, string][],
) {
  const { shown, kept } = await send(cases.map(([sent]) => sent));
  const expected = cases.map(([, masked]) => masked);
  expect(shown).toEqual(expected);
  expect(kept).toEqual(expected);
  expect(shown.join('\n')).not.toContain(owner.accessKey);
}

describe('the server removes secrets from a bot’s log before keeping or showing it', () => {
  it('the owner’s access key in base64, hex, URL-encoded and upper-case forms', async () => {
    const { owner, send } = await streamingAgent();
    const key = owner.accessKey;
    const bytes = Buffer.from(key);
    await expectMasked(owner, send, [
      [`clé ${bytes.toString('base64')} lue`, `clé ${M} lue`],
      [`clé ${bytes.toString('base64url')} lue`, `clé ${M} lue`],
      [`clé ${bytes.toString('hex')} lue`, `clé ${M} lue`],
      [`clé ${bytes.toString('hex').toUpperCase()} lue`, `clé ${M} lue`],
      [`GET /x?k=${encodeURIComponent(bytes.toString('base64'))}&y=1`, `GET /x?k=${M}&y=1`],
      [`clé ${key.toUpperCase()} lue`, `clé ${M} lue`],
    ]);
  });

  it('a key split over two lines of one batch', async () => {
    const { owner, send } = await streamingAgent();
    const key = owner.accessKey;
    await expectMasked(owner, send, [
      ['avant', 'avant'],
      [`clé ${key.slice(0, 20)}`, `clé ${M}`],
      [`${key.slice(20)} chargée`, `${M} chargée`],
    ]);
  });

  it('a lease with %2E for its dots, the web session token, another user’s key, PASSWORD= in capitals', async () => {
    const { owner, send } = await streamingAgent();
    const other = await createBotOwner(server);
    const lease = (
      await call()<{ lease: string }>('POST', '/bot/sessions', {
        accessKey: owner.accessKey,
        hwid: owner.hwid,
        version: '1.0.0',
      })
    ).body.lease;
    expect(lease.split('.')).toHaveLength(3);
    await expectMasked(owner, send, [
      [`bail=${lease.replaceAll('.', '%2E')}&v=1`, `bail=${M}&v=1`],
      [`session web ${owner.token}`, `session web ${M}`],
      [`clé d’un autre ${other.accessKey}`, `clé d’un autre ${M}`],
      ['PASSWORD=hunter2 refusé', `PASSWORD=${M} refusé`],
      [`jeton d’API bpat_${randomBytes(32).toString('base64url')}`, `jeton d’API ${M}`],
    ]);
  });

  it('before cutting a long line: a key past the cut does not leave a piece of itself', async () => {
    const { owner, send } = await streamingAgent();
    // Cut first, the line would keep the key's first 18 characters before the "…".
    const padding = 'x'.repeat(980);
    const { shown, kept } = await send([
      `${padding} ${owner.accessKey}`,
      `${'y'.repeat(1_200)} ${owner.accessKey}`,
    ]);
    expect(shown).toEqual([`${padding} ${M}`, `${'y'.repeat(999)}…`]);
    expect(kept).toEqual(shown);
  });
});
