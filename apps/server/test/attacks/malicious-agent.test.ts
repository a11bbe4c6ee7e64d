import { hashHwidComponents } from '@bot/bot-agent';
import type { BotLogLine, BotLogLineInput, BotLogLines } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';
import {
  connectAndAuthenticate,
  createBotOwner,
  newHwid,
  openSocket,
  type TestSocket,
  waitFor,
} from '../helpers/realtime.ts';

/**
 * Attack family 6: a malicious agent (its owner's access key, a home-made agent speaking the
 * protocol through a real socket.io-client). Hostile log batches carrying secrets in the encodings
 * docs/security.md says the server masks; out-of-range dates; a lease renewal for another PC.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { botSession: { max: 10_000, windowMs: 60_000 } } });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

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
  sockets.push(journal.socket);
  const received: BotLogLine[] = [];
  journal.socket.on('bot_log', (batch: BotLogLines) => received.push(...batch.lines));
  await started;
  const send = async (messages: string[], time = new Date().toISOString()) => {
    const from = received.length;
    const lines: BotLogLineInput[] = messages.map((message) => ({ level: 'info', time, message }));
    agent.emit('bot_log', { lines, backlog: true });
    await vi.waitFor(() => expect(received.length).toBe(from + messages.length));
    const kept = await call<{ data: BotLogLine[] }>('GET', '/me/bot/log', undefined, owner.token);
    return [
      ...received.slice(from).map((line) => line.message),
      ...kept.body.data.map((line) => line.message),
    ].join('\n');
  };
  return { owner, send, agent };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string) => Buffer.from(text).toString('hex');
/** 16 characters from inside an encoded secret: what must not survive. */
const mid = (text: string) => text.slice(Math.floor(text.length / 3), Math.floor(text.length / 3) + 16);
/** Every character escaped, with lower-case hex (`%5f`). */
const lowerEscapes = (text: string) =>
  [...text].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
const twice = (text: string) => encodeURIComponent(encodeURIComponent(text)).replaceAll('_', '%255F');

describe('a malicious agent’s log batches: what docs/security.md says is masked is masked', () => {
  const cases: Array<
    [string, (key: string, token: string) => string[], (key: string, token: string) => string[]]
  > = [
    [
      'the key in upper-case hex',
      (k) => [`dump ${hex(k).toUpperCase()}`],
      (k) => [mid(hex(k).toUpperCase())],
    ],
    [
      'the key in base64 at byte alignment 1 and 2, inside a longer text',
      (k) => [`h1 ${b64(`x${k}`)}`, `h2 ${b64(`xy${k}y`)}`],
      (k) => [mid(b64(`x${k}`)), mid(b64(`xy${k}y`))],
    ],
    [
      'the key URL-encoded with lower-case escapes',
      (k) => [`q=${lowerEscapes(k)}`],
      (k) => [mid(lowerEscapes(k)), mid(k)],
    ],
    ['the key URL-encoded twice (%255F)', (k) => [`q=${twice(k)}`], (k) => [mid(twice(k)), mid(k)]],
    [
      'the key in URL-encoded base64 (an Authorization header in a query)',
      (k) => [`h=${encodeURIComponent(`Basic ${b64(`user:${k}`)}`)}`],
      (k) => [mid(b64(`user:${k}`)), mid(encodeURIComponent(b64(`user:${k}`)))],
    ],
    [
      'the key split over two lines of one batch',
      (k) => [`debut ${k.slice(0, 20)}`, `${k.slice(20)} fin`],
      (k) => [k.slice(20), k.slice(0, 20)],
    ],
    [
      'the key after bk_ in base64url alone',
      (k) => [`p=${b64url(k.slice(3))}`],
      (k) => [mid(b64url(k.slice(3)))],
    ],
    [
      'the owner’s web session token, plain',
      (_k, t) => [`cookie session=${t}`, `x ${t} y`],
      (_k, t) => [mid(t)],
    ],
    [
      'password values in JSON, spaced, quoted, any case',
      () => [
        '{"Password": "hunter2hunter2"}',
        'PASSWD : "hunter3hunter3"',
        "mot de passe = 'hunter4hunter4'",
        'Api_Key=hunter5hunter5',
      ],
      () => ['hunter2hunter2', 'hunter3hunter3', 'hunter4hunter4', 'hunter5hunter5'],
    ],
    [
      'a bearer value, lower case',
      () => ['authorization: bearer abcdefghijklmnop1234'],
      () => ['abcdefghijklmnop1234'],
    ],
    [
      'a lease with lower-case %2e for its dots',
      () => [`l=eyJhbGciOiJFZERTQSJ9%2eeyJzdWIiOiJ4In0%2eAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`],
      () => ['eyJzdWIiOiJ4In0'],
    ],
  ];

  for (const [name, lines, forbidden] of cases) {
    it(`masks ${name}`, async () => {
      const { owner, send } = await streamingAgent();
      const shown = await send(lines(owner.accessKey, owner.token));
      for (const piece of forbidden(owner.accessKey, owner.token)) expect(shown, piece).not.toContain(piece);
    });
  }
});

describe('a malicious agent’s dates and leases', () => {
  it('a log batch dated year 0000 or +275760 is refused or stored sanely, never a crash of the socket', async () => {
    const { agent, owner } = await streamingAgent();
    for (const time of ['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z', '-000001-01-01T00:00:00Z']) {
      agent.emit('bot_log', { lines: [{ level: 'info', time, message: `date ${time}` }], backlog: true });
    }
    const log = await call('GET', '/me/bot/log', undefined, owner.token);
    expect(log.status).toBe(200);
    expect(agent.connected).toBe(true);
  });

  it('a session reporting a crash dated year 0000 gets a 400, not a 500', async () => {
    const owner = await createBotOwner(server);
    const answer = await call('POST', '/bot/sessions', {
      accessKey: owner.accessKey,
      hwid: owner.hwid,
      version: '1.0.0',
      lastCrash: { version: '1.0.0', at: '0000-01-01T00:00:00Z', message: 'boum' },
    });
    expect(answer.status).not.toBeGreaterThanOrEqual(500);
  });

  it('renews no lease for another PC with its own bot session', async () => {
    const owner = await createBotOwner(server);
    const other = await createBotOwner(server);
    for (const hwid of [other.hwid, newHwid(), owner.hwid.toLowerCase(), ` ${owner.hwid}`]) {
      const answer = await call('POST', '/bot/lease', { token: owner.botToken, hwid });
      if (hwid.trim() === owner.hwid) continue;
      expect(answer.status, hwid).toBeGreaterThanOrEqual(400);
    }
  });

  it('a session of its own key under another customer’s bound hwid is refused', async () => {
    const owner = await createBotOwner(server);
    const other = await createBotOwner(server);
    const answer = await call('POST', '/bot/sessions', {
      accessKey: owner.accessKey,
      hwid: other.hwid,
      version: '1.0.0',
    });
    // Its own PC is already bound: another hwid is another PC.
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });
});

describe('a malicious agent drifting its binding', () => {
  it('one part a session, five sessions: the binding reaches an all-new PC only by spending an unbind (or is refused)', async () => {
    const owner = await server.createUser({ permissions: ['can_useGathering'] });
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
    const tag = newHwid().slice(-8);
    const names = ['machine', 'disk', 'board', 'nic', 'cpu'] as const;
    const parts: Record<string, string> = Object.fromEntries(names.map((name) => [name, `${name}-A-${tag}`]));
    const hwidA = newHwid();
    const first = await call('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid: hwidA,
      version: '1.0.0',
      components: hashHwidComponents(parts),
    });
    expect(first.status).toBe(201);
    const before = await call<{ data: { used: number } }>('GET', '/me/hwid-resets', undefined, owner.token);
    const statuses: number[] = [];
    for (const [index, name] of names.entries()) {
      parts[name] = `${name}-B-${tag}`;
      // Each step also under a new hwid of its own: a new PC, as it would report itself.
      const step = await call('POST', '/bot/sessions', {
        accessKey: key.body.data.accessKey,
        hwid: index === names.length - 1 ? newHwid() : hwidA,
        version: '1.0.0',
        components: hashHwidComponents(parts),
      });
      statuses.push(step.status);
    }
    const after = await call<{ data: { used: number } }>('GET', '/me/hwid-resets', undefined, owner.token);
    const refused = statuses.some((status) => status >= 400);
    expect(refused || after.body.data.used > before.body.data.used, JSON.stringify(statuses)).toBe(true);
  });
});
