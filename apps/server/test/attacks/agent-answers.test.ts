import {
  type BotCommandDelivery,
  type BotLogLine,
  type ClientToServerEvents,
  ERRORS,
  type SocketAck,
  socketAckSchema,
} from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';
import {
  account,
  connectAndAuthenticate,
  createBotOwner,
  newHwid,
  type TestSocket,
  waitFor,
} from '../helpers/realtime.ts';

/**
 * Attack 2: the answers to an agent's messages (decision 923). A malicious agent (its owner's key,
 * a home-made agent on a real socket.io-client) probes the answers for what it should not learn,
 * reuses log line ids to reach other customers' lines, floods unique ids, and floods reports.
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

type Owner = Awaited<ReturnType<typeof createBotOwner>>;
type AgentEvent = keyof ClientToServerEvents;

async function agentOf(owner: Owner): Promise<TestSocket> {
  const { socket, ack } = await connectAndAuthenticate(server, {
    type: 'bot',
    token: owner.botToken,
    hwid: owner.hwid,
  });
  sockets.push(socket);
  expect(ack).toEqual({ ok: true });
  return socket;
}

/** The agent and its owner reading the journal: the stream has started. */
async function streamingAgentOf(owner: Owner): Promise<TestSocket> {
  const { socket, ack } = await connectAndAuthenticate(server, {
    type: 'bot',
    token: owner.botToken,
    hwid: owner.hwid,
  });
  sockets.push(socket);
  expect(ack).toEqual({ ok: true });
  const started = waitFor(socket, 'bot_log_start');
  const journal = await connectAndAuthenticate(server, { type: 'log', token: owner.token, hwid: owner.hwid });
  sockets.push(journal.socket);
  await started;
  return socket;
}

const send = (socket: TestSocket, event: AgentEvent, payload: unknown): Promise<SocketAck> =>
  (
    socket.timeout(5_000) as unknown as { emitWithAck: (e: string, p: unknown) => Promise<SocketAck> }
  ).emitWithAck(event, payload);

const journalOf = async (owner: Owner) =>
  (await call<{ data: BotLogLine[] }>('GET', '/me/bot/log', undefined, owner.token)).body.data;

const line = (id: string | undefined, message: string) => ({
  ...(id === undefined ? {} : { id }),
  level: 'info' as const,
  time: new Date().toISOString(),
  message,
});

/** What an answer must never carry: internals (stack, SQL, driver), another user's data. */
const INTERNALS =
  /\bat .+:\d+:\d+|stack|select |insert into|update .+ set|postgres|pglite|drizzle|sqlstate|duplicate key|violates|node_modules|TypeError|ReferenceError/i;

describe('the answers leak nothing', () => {
  const hostile: [AgentEvent, unknown][] = [
    ['bot_update', null],
    ['bot_update', 'accounts'],
    ['bot_update', { accounts: [{ ...account('x'), level: 'DROP TABLE users' }] }],
    ['bot_update', { accounts: [], __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } }],
    ['bot_update', { accounts: [account('x', { position: { mapId: 2 ** 40, x: 1e308, y: -0 } })] }],
    ['bot_log', { lines: [line('a', 'nul \u0000 byte')] }],
    ['bot_log', { lines: [{ level: 'info', time: '0000-01-01T00:00:00Z', message: 'x' }] }],
    ['bot_log', [1, 2, 3]],
    ['bot_command_ack', { id: "'; select 1; --" }],
    ['bot_command_ack', { id: '00000000-0000-0000-0000-000000000000' }],
    [
      'bot_command_result',
      { id: 'ffffffff-ffff-ffff-ffff-ffffffffffff', ok: true, message: 'x'.repeat(600) },
    ],
    ['bot_command_result', { id: 42, ok: 'yes' }],
  ];

  it('answers each hostile message with the error table’s answer, never an internal', async () => {
    const owner = await createBotOwner(server);
    const socket = await agentOf(owner);
    for (const [event, payload] of hostile) {
      const answer = await send(socket, event, payload);
      const text = JSON.stringify(answer);
      expect(socketAckSchema.safeParse(answer).success, text).toBe(true);
      if (!answer.ok) {
        expect(Object.keys(ERRORS), text).toContain(answer.code);
        expect(answer.code, `${event} ${text}`).not.toMatch(/^(INTERNAL|AUDIT_OUTSIDE_TRANSACTION)$/);
      }
      expect(text, `${event}`).not.toMatch(INTERNALS);
      expect(text).not.toContain(owner.user.id);
      expect(text).not.toContain(owner.botToken);
    }
    expect(socket.connected).toBe(true);
  });

  it('a command id of another customer’s bot is answered like an unknown one, and stays theirs', async () => {
    const victim = await createBotOwner(server);
    const victimSocket = await agentOf(victim);
    const delivered = waitFor<BotCommandDelivery>(victimSocket, 'bot_command');
    expect((await call('POST', '/me/bot/commands', { kind: 'pause' }, victim.token)).status).toBe(201);
    const command = await delivered;

    const attacker = await createBotOwner(server);
    const socket = await agentOf(attacker);
    const unknown = await send(socket, 'bot_command_ack', { id: '6f1c2a7e-9b3d-4e51-8a20-3c5d7e9f1b42' });
    const theirs = await send(socket, 'bot_command_ack', { id: command.id });
    const result = await send(socket, 'bot_command_result', { id: command.id, ok: false, message: 'pwned' });
    expect(theirs).toEqual(unknown);
    expect(result).toEqual(unknown);
    const list = await call<{ data: { id: string; state: string }[] }>(
      'GET',
      '/me/bot/commands',
      undefined,
      victim.token,
    );
    expect(list.body.data.find((kept) => kept.id === command.id)?.state).toBe('sent');
  });
});

describe('a report naming game accounts off the whitelist', () => {
  it('another customer’s whitelisted account is answered exactly like a made-up one, naming only what was sent', async () => {
    const tag = newHwid().slice(-6);
    const victim = await createBotOwner(server, { accounts: [`victim-${tag}`] });
    expect(victim.accounts).toHaveLength(1);
    const attacker = await createBotOwner(server, { accounts: [`mine-${tag}`] });
    const socket = await agentOf(attacker);
    const probe = async (name: string) => {
      const answer = await send(socket, 'bot_update', { accounts: [account(`mine-${tag}`), account(name)] });
      // One report a quarter second at most: the next one is not throttled.
      await vi.waitFor(async () => {
        const seen = await send(socket, 'bot_update', { accounts: [account(`mine-${tag}`)] });
        expect(seen).toEqual({ ok: true });
      });
      return answer;
    };
    const theirs = await probe(`victim-${tag}`);
    const madeUp = await probe(`nobody-${tag}`);
    expect(theirs).toMatchObject({ ok: false, code: 'WHITELIST_ACCOUNT_UNKNOWN' });
    expect(JSON.stringify(theirs).replaceAll(`victim-${tag}`, 'X')).toBe(
      JSON.stringify(madeUp).replaceAll(`nobody-${tag}`, 'X'),
    );
    const text = JSON.stringify(theirs);
    expect(text).not.toContain(victim.user.username);
    expect(text).not.toContain(victim.user.id);
    expect(text).not.toContain(victim.hwid);
  });
});

describe('log line ids', () => {
  it('the same id from two customers’ agents is kept for each, each reading only its own', async () => {
    const a = await createBotOwner(server);
    const b = await createBotOwner(server);
    const agentA = await streamingAgentOf(a);
    const agentB = await streamingAgentOf(b);
    expect(await send(agentA, 'bot_log', { lines: [line('run-1:1', 'ligne de A')], backlog: true })).toEqual({
      ok: true,
    });
    expect(await send(agentB, 'bot_log', { lines: [line('run-1:1', 'ligne de B')], backlog: true })).toEqual({
      ok: true,
    });
    await vi.waitFor(async () =>
      expect((await journalOf(a)).map((kept) => kept.message)).toEqual(['ligne de A']),
    );
    await vi.waitFor(async () =>
      expect((await journalOf(b)).map((kept) => kept.message)).toEqual(['ligne de B']),
    );
  });

  it('an id sent again neither overwrites nor duplicates the line; a too long id is refused alone', async () => {
    const owner = await createBotOwner(server);
    const agent = await streamingAgentOf(owner);
    await send(agent, 'bot_log', { lines: [line('dup-1', 'premiere')], backlog: true });
    await vi.waitFor(async () => expect(await journalOf(owner)).toHaveLength(1));
    const again = await send(agent, 'bot_log', {
      lines: [line('dup-1', 'remplacee'), line('x'.repeat(65), 'id trop long'), line('dup-2', 'seconde')],
      backlog: true,
    });
    expect(again).toMatchObject({
      ok: false,
      code: 'BOT_LOG_LINES_REFUSED',
      details: { refused: [{ path: 'lines.1.id' }], kept: 2 },
    });
    await vi.waitFor(async () =>
      expect((await journalOf(owner)).map((kept) => kept.message)).toEqual(['premiere', 'seconde']),
    );
  });

  it('a flood of unique ids is bounded: the backlog at 500 lines a watch, then the rate', async () => {
    const owner = await createBotOwner(server);
    const agent = await streamingAgentOf(owner);
    const answers: SocketAck[] = [];
    for (let batch = 0; batch < 12; batch += 1) {
      const lines = Array.from({ length: 50 }, (_, index) =>
        line(`u-${batch}-${index}`, `l ${batch} ${index}`),
      );
      answers.push(await send(agent, 'bot_log', { lines, backlog: true }));
    }
    const live = Array.from({ length: 50 }, (_, index) => line(`v-${index}`, `live ${index}`));
    const throttled = await send(agent, 'bot_log', { lines: live });
    expect(answers.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => ({ ok: true })));
    expect(answers.slice(10)).toEqual([
      expect.objectContaining({ ok: false, code: 'RATE_LIMITED' }),
      expect.objectContaining({ ok: false, code: 'RATE_LIMITED' }),
    ]);
    expect(throttled).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    await vi.waitFor(async () => expect((await journalOf(owner)).length).toBeGreaterThanOrEqual(500));
    const journal = await journalOf(owner);
    expect(journal.filter((kept) => kept.origin === 'agent').length).toBeLessThanOrEqual(500 + 20);
  });
});

describe('a throttled report', () => {
  it('is answered with the same small refusal, whatever the report’s size', async () => {
    const owner = await createBotOwner(server);
    const socket = await agentOf(owner);
    const big = {
      accounts: Array.from({ length: 8 }, (_, index) =>
        account(owner.accounts[0] as string, { message: `${index}`.repeat(200).slice(0, 200) }),
      ),
    };
    const answers = await Promise.all(Array.from({ length: 30 }, () => send(socket, 'bot_update', big)));
    const throttled = answers.filter((answer) => !answer.ok && answer.code === 'RATE_LIMITED');
    expect(throttled.length).toBeGreaterThan(20);
    for (const answer of throttled) {
      // The same refusal but for the wait it names.
      expect(answer).toEqual({
        ok: false,
        code: 'RATE_LIMITED',
        error: expect.stringContaining('4 par seconde'),
        details: { limitPerSecond: 4, retryAfterMs: expect.any(Number) },
      });
      expect(JSON.stringify(answer).length).toBeLessThan(200);
    }
  });
});
