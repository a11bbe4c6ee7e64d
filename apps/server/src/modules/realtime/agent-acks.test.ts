import {
  type BotCommand,
  type BotCommandDelivery,
  type BotLogLine,
  ERRORS,
  type SocketAck,
} from '@bot/contracts';
import { describe, expect, it, vi } from 'vitest';
import { apiClient, type TestServer } from '../../../test/harness.ts';
import {
  account,
  connectAndAuthenticate,
  createBotOwner,
  realtimeSuite,
  type TestSocket,
  waitFor,
} from '../../../test/helpers/realtime.ts';

/**
 * Every message an agent sends is answered when it passes an acknowledgement callback: accepted, or
 * what was refused (decision 923, docs/protocol.md "Acknowledgements"). Raw socket.io-client agents.
 */
let server: TestServer;
const { connectBot, track } = realtimeSuite((started) => {
  server = started;
});
type Owner = Awaited<ReturnType<typeof createBotOwner>>;

const send = (socket: TestSocket, event: string, payload: unknown): Promise<SocketAck> =>
  (socket as unknown as { timeout(ms: number): { emitWithAck(e: string, p: unknown): Promise<SocketAck> } })
    .timeout(5_000)
    .emitWithAck(event, payload);

describe('bot_update is answered', () => {
  it('names the field of a refused report, and accepts a good one', async () => {
    const owner = await createBotOwner(server);
    const { socket } = await connectBot(owner);
    const good = account(owner.accounts[0] as string);
    expect(await send(socket, 'bot_update', { accounts: [good] })).toEqual({ ok: true });

    const unknownField = await send(socket, 'bot_update', {
      accounts: [{ ...good, humeur: 1 }],
      mood: 'joyeux',
    });
    expect(unknownField).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect((unknownField as { error: string }).error).toContain('accounts.0.humeur : Clé non reconnue');
    // An unknown key is named by its own path, as a bad value is (not its object's, an empty path).
    const paths = (unknownField as { details: { path: string }[] }).details.map((issue) => issue.path);
    expect(paths.sort()).toEqual(['accounts.0.humeur', 'mood']);

    const level = await send(socket, 'bot_update', { accounts: [{ ...good, level: 5.5 }] });
    expect(level).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect((level as { details: { path: string }[] }).details.map((issue) => issue.path)).toEqual([
      'accounts.0.level',
    ]);
    const status = await send(socket, 'bot_update', { accounts: [{ ...good, status: 'dancing' }] });
    expect((status as { details: { path: string }[] }).details[0]?.path).toBe('accounts.0.status');
  });

  it('refuses a NUL character by its field, with the message HTTP answers (NUL_CHARACTER)', async () => {
    const owner = await createBotOwner(server);
    const { socket } = await connectBot(owner);
    const poisoned = account(owner.accounts[0] as string, { status: 'error', message: 'a\u0000b' });
    expect(await send(socket, 'bot_update', { accounts: [poisoned] })).toMatchObject({
      ok: false,
      code: 'VALIDATION_ERROR',
      details: [{ path: 'accounts.0.message', message: ERRORS.NUL_CHARACTER.message }],
    });
  });

  it('names at most the first 5 refused fields, each cut to 80 characters', async () => {
    const owner = await createBotOwner(server);
    const { socket } = await connectBot(owner);
    const unknown = Object.fromEntries(
      Array.from({ length: 12 }, (_, index) => [`${index}`.padEnd(120, 'x'), 1]),
    );
    const answer = (await send(socket, 'bot_update', { accounts: [], ...unknown })) as {
      details: { path: string; message: string }[];
    };
    expect(answer.details).toHaveLength(5);
    for (const { path, message } of answer.details) {
      expect([...path].length).toBeLessThanOrEqual(80);
      expect([...message].length).toBeLessThanOrEqual(80);
    }
  });

  it('names an account off the owner’s whitelist, dropped from a report whose others are kept', async () => {
    const owner = await createBotOwner(server);
    const { socket } = await connectBot(owner);
    const kept = account(owner.accounts[0] as string);
    const answer = await send(socket, 'bot_update', { accounts: [kept, account('hors-liste')] });
    expect(answer).toMatchObject({
      ok: false,
      code: 'WHITELIST_ACCOUNT_UNKNOWN',
      details: { account: 'hors-liste' },
    });
    const seen = await apiClient(server)<{ data: { state: { accounts: { name: string }[] } } }>(
      'GET',
      '/me/bot',
      undefined,
      owner.token,
    );
    expect(seen.body.data.state.accounts.map((reported) => reported.name)).toEqual([kept.name]);
  });

  it('says RATE_LIMITED for a report past the socket’s rate', async () => {
    const owner = await createBotOwner(server);
    const { socket } = await connectBot(owner);
    const report = { accounts: [account(owner.accounts[0] as string)] };
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(socket, 'bot_update', report)));
    expect(answers).toContainEqual({ ok: true });
    const throttled = answers.find((answer) => !answer.ok);
    // The limit and when the next report is accepted travel as data (docs/protocol.md, "Reports").
    expect(throttled).toMatchObject({
      ok: false,
      code: 'RATE_LIMITED',
      details: { limitPerSecond: 4, retryAfterMs: expect.any(Number) },
    });
    const { retryAfterMs } = (throttled as { details: { retryAfterMs: number } }).details;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(250);
    expect((throttled as { error: string }).error).toContain('4 par seconde');
  });
});

/** Issues a command as the owner and answers it as it reaches the agent. */
async function issueCommand(owner: Owner, socket: TestSocket): Promise<BotCommandDelivery> {
  const delivered = waitFor<BotCommandDelivery>(socket, 'bot_command');
  const issued = await apiClient(server)('POST', '/me/bot/commands', { kind: 'pause' }, owner.token);
  expect(issued.status).toBe(201);
  return delivered;
}

async function commandOf(owner: Owner, id: string): Promise<BotCommand | undefined> {
  const list = await apiClient(server)<{ data: BotCommand[] }>(
    'GET',
    '/me/bot/commands',
    undefined,
    owner.token,
  );
  return list.body.data.find((command) => command.id === id);
}

describe('bot_command_ack and bot_command_result are answered', () => {
  it('refuses a command not waiting for that message, cuts a long failure, keeps a success message', async () => {
    const owner = await createBotOwner(server);
    const { socket } = await connectBot(owner);
    const unknown = await send(socket, 'bot_command_ack', { id: '6f1c2a7e-9b3d-4e51-8a20-3c5d7e9f1b42' });
    expect(unknown).toMatchObject({ ok: false, code: 'BOT_COMMAND_NOT_PENDING' });

    const failing = await issueCommand(owner, socket);
    expect(await send(socket, 'bot_command_ack', { id: failing.id })).toEqual({ ok: true });
    const long = 'é'.repeat(600);
    expect(await send(socket, 'bot_command_result', { id: failing.id, ok: false, message: long })).toEqual({
      ok: true,
    });
    const failed = await commandOf(owner, failing.id);
    expect(failed?.state).toBe('failed');
    expect(failed?.message).toBe(`${'é'.repeat(499)}…`);
    const again = await send(socket, 'bot_command_result', { id: failing.id, ok: true });
    expect(again).toMatchObject({ ok: false, code: 'BOT_COMMAND_NOT_PENDING' });

    const succeeding = await issueCommand(owner, socket);
    await send(socket, 'bot_command_ack', { id: succeeding.id });
    await send(socket, 'bot_command_result', {
      id: succeeding.id,
      ok: true,
      message: 'En pause depuis 09:15',
    });
    expect(await commandOf(owner, succeeding.id)).toMatchObject({
      state: 'succeeded',
      message: 'En pause depuis 09:15',
    });
  });
});

describe('bot_log is answered', () => {
  const line = (id: string, message: string) => ({
    id,
    level: 'info',
    time: new Date().toISOString(),
    message,
  });

  async function streamingAgent(owner: Owner) {
    const { socket } = await connectBot(owner);
    const started = waitFor(socket, 'bot_log_start');
    const journal = track(
      await connectAndAuthenticate(server, { type: 'log', token: owner.token, hwid: owner.hwid }),
    );
    const received: BotLogLine[] = [];
    journal.socket.on('bot_log', (batch: { lines: BotLogLine[] }) => received.push(...batch.lines));
    await started;
    return { socket, received };
  }

  it('refuses lines nobody asked for', async () => {
    const owner = await createBotOwner(server);
    const { socket } = await connectBot(owner);
    const answer = await send(socket, 'bot_log', { lines: [line('a-1', 'personne ne lit')] });
    expect(answer).toMatchObject({ ok: false, code: 'BOT_LOG_NOT_REQUESTED' });
  });

  it('refuses a bad line alone, keeps the others, and keeps a line sent again once', async () => {
    const owner = await createBotOwner(server);
    const { socket, received } = await streamingAgent(owner);
    const batch = {
      backlog: true,
      lines: [
        line('r1-1', 'premier'),
        { ...line('r1-2', 'mauvais'), level: 'loud' },
        line('r1-3', 'troisième'),
      ],
    };
    const answer = await send(socket, 'bot_log', batch);
    // A partial refusal is told apart from a whole one: its own code, the lines refused and the count kept.
    expect(answer).toMatchObject({
      ok: false,
      code: 'BOT_LOG_LINES_REFUSED',
      details: { refused: [{ path: 'lines.1.level' }], kept: 2 },
    });
    expect((answer as { error: string }).error).toContain('1 ligne refusée, 2 gardées');
    await vi.waitFor(() => expect(received.map((kept) => kept.message)).toEqual(['premier', 'troisième']));

    // The backlog again (a reconnection): the lines already kept are not kept twice.
    const resent = await send(socket, 'bot_log', {
      backlog: true,
      lines: [line('r1-1', 'premier'), line('r1-3', 'troisième'), line('r1-4', 'quatrième')],
    });
    expect(resent).toEqual({ ok: true });
    await vi.waitFor(() => expect(received.map((kept) => kept.message)).toContain('quatrième'));
    const kept = await apiClient(server)<{ data: BotLogLine[] }>(
      'GET',
      '/me/bot/log',
      undefined,
      owner.token,
    );
    expect(kept.body.data.map((row) => row.message)).toEqual(['premier', 'troisième', 'quatrième']);
  });
});
