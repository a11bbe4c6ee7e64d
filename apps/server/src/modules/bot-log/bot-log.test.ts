import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BotLogLine, BotLogLineInput, BotLogLines } from '@bot/contracts';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  connectAndAuthenticate,
  createBotOwner,
  newHwid,
  openSocket,
  type TestSocket,
  waitFor,
  waitForClose,
} from '../../../test/helpers/realtime.ts';
import { updateSettings } from '../settings/index.ts';
import { listBotLogLines, purgeBotLog, recordBotLogLines } from './bot-log.service.ts';
import { botLogLines } from './bot-log.table.ts';

let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

const SYSTEM = { id: null, username: null, ip: null };
type Owner = Awaited<ReturnType<typeof createBotOwner>>;
const call = () => apiClient(server);

/** A raw agent that records, from before it authenticates, when it is told to stream or stop. */
async function rawAgent(owner: Owner) {
  const socket = openSocket(server, { hwid: owner.hwid });
  sockets.push(socket);
  const told: string[] = [];
  socket.on('bot_log_start', () => told.push('start'));
  socket.on('bot_log_stop', () => told.push('stop'));
  await waitFor(socket, 'connect');
  const ack = await socket
    .timeout(5_000)
    .emitWithAck('authenticate', { type: 'bot', token: owner.botToken, hwid: owner.hwid });
  expect(ack).toEqual({ ok: true });
  return { socket, told };
}

/** A journal socket ("Journal du bot") of that user on that PC, with every line it receives. */
async function openJournal(token: string, hwid: string) {
  const { socket, ack } = await connectAndAuthenticate(server, { type: 'log', token, hwid });
  sockets.push(socket);
  const received: BotLogLine[] = [];
  socket.on('bot_log', (batch: BotLogLines) => {
    expect(batch.hwid).toBe(hwid);
    received.push(...batch.lines);
  });
  return { socket, ack, received };
}

const line = (message: string, level: BotLogLineInput['level'] = 'info'): BotLogLineInput => ({
  level,
  time: new Date().toISOString(),
  message,
});

describe('the journal streams while someone reads it', () => {
  it('starts the agent with its first reader and stops it with its last', async () => {
    const owner = await createBotOwner(server);
    const agent = await rawAgent(owner);
    expect(agent.told).toEqual([]);

    const first = await openJournal(owner.token, owner.hwid);
    expect(first.ack).toEqual({ ok: true });
    await vi.waitFor(() => expect(agent.told).toEqual(['start']));
    const second = await openJournal(owner.token, owner.hwid);
    expect(second.ack).toEqual({ ok: true });

    agent.socket.emit('bot_log', { lines: [line('avant'), line('encore avant')], backlog: true });
    agent.socket.emit('bot_log', { lines: [line('Compte A : erreur de chemin', 'error')] });
    await vi.waitFor(() => expect(second.received.map((kept) => kept.message)).toHaveLength(3));
    expect(first.received.map((kept) => [kept.level, kept.message, kept.origin])).toEqual([
      ['info', 'avant', 'agent'],
      ['info', 'encore avant', 'agent'],
      ['error', 'Compte A : erreur de chemin', 'agent'],
    ]);

    // One reader leaves: the other still reads, the agent goes on.
    first.socket.disconnect();
    second.socket.disconnect();
    await vi.waitFor(() => expect(agent.told).toEqual(['start', 'stop']));

    // What was received is kept, oldest first, for the next reader.
    const kept = await call()<{ data: BotLogLine[]; online: boolean }>(
      'GET',
      '/me/bot/log',
      undefined,
      owner.token,
    );
    expect(kept.status).toBe(200);
    expect(kept.body.online).toBe(true);
    expect(kept.body.data.map((kept) => kept.message)).toEqual([
      'avant',
      'encore avant',
      'Compte A : erreur de chemin',
    ]);

    // Lines nobody asked for are not kept.
    const third = await openJournal(owner.token, owner.hwid);
    await vi.waitFor(() => expect(agent.told).toEqual(['start', 'stop', 'start']));
    agent.socket.emit('bot_log', { lines: [line('après')] });
    await vi.waitFor(() => expect(third.received.map((kept) => kept.message)).toEqual(['après']));
  });

  it('an agent that connects while its journal is open streams at once', async () => {
    const owner = await createBotOwner(server);
    const journal = await openJournal(owner.token, owner.hwid);
    const agent = await rawAgent(owner);
    await vi.waitFor(() => expect(agent.told).toEqual(['start']));
    agent.socket.emit('bot_log', { lines: [line('démarré')], backlog: true });
    await vi.waitFor(() => expect(journal.received.map((kept) => kept.message)).toEqual(['démarré']));
  });

  it('limits the lines per bot, says how many were dropped, and cuts long lines', async () => {
    const owner = await createBotOwner(server);
    const agent = await rawAgent(owner);
    const journal = await openJournal(owner.token, owner.hwid);
    await vi.waitFor(() => expect(agent.told).toEqual(['start']));

    const burst = Array.from({ length: 50 }, (_, index) => line(`ligne ${index}`));
    agent.socket.emit('bot_log', { lines: burst, dropped: 4 });
    // 20 lines pass (5 per second, bursts of 20); the other 30 and the agent's 4 are told.
    await vi.waitFor(() => expect(journal.received.some((kept) => kept.origin === 'server')).toBe(true));
    const agentLines = journal.received.filter((kept) => kept.origin === 'agent');
    expect(agentLines.map((kept) => kept.message)).toEqual(burst.slice(0, 20).map((sent) => sent.message));
    const notice = journal.received.find((kept) => kept.origin === 'server');
    expect(notice).toMatchObject({
      level: 'warn',
      message: '34 lignes du bot non transmises : trop de lignes à la fois.',
    });

    // A backlog is not rate-limited (once per watch, at most the agent's ring buffer).
    const long = 'é'.repeat(3_000);
    agent.socket.emit('bot_log', { lines: [line(long, 'debug')], backlog: true });
    await vi.waitFor(() => expect(journal.received.some((kept) => kept.level === 'debug')).toBe(true));
    const cut = journal.received.find((kept) => kept.level === 'debug')?.message ?? '';
    expect(cut).toHaveLength(1_000);
    expect(cut.endsWith('…')).toBe(true);

    // Malformed batches are ignored, the socket stays.
    agent.socket.emit('bot_log', { lines: [{ level: 'fatal', time: 'hier', message: 1 }] } as never);
    agent.socket.emit('bot_log', { lines: [line('toujours là')], backlog: true });
    await vi.waitFor(() => expect(journal.received.at(-1)?.message).toBe('toujours là'));
    expect(agent.socket.connected).toBe(true);
  });
});

describe('who reads a journal', () => {
  it('the owner and staff who act on bots; nobody else, and a withdrawn right closes the socket', async () => {
    const owner = await createBotOwner(server);
    const stranger = await server.createUser();
    expect((await openJournal(stranger.token, owner.hwid)).ack).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
    });
    const customerCall = await call()('GET', `/admin/bots/${owner.hwid}/log`, undefined, stranger.token);
    expect(customerCall.status).toBe(403);

    for (const permission of ['can_manageMap', 'can_manageUsersOnline', 'can_manageUsers'] as const) {
      const staff = await server.createUser({ permissions: [permission] });
      expect((await openJournal(staff.token, owner.hwid)).ack).toEqual({ ok: true });
      const kept = await call()('GET', `/admin/bots/${owner.hwid}/log`, undefined, staff.token);
      expect(kept.status).toBe(200);
    }

    // Staff who lose the permission stop reading at once.
    const admin = await server.createUser({ isAdministrator: true });
    const staff = await server.createUser({ permissions: ['can_manageUsers'] });
    const journal = await openJournal(staff.token, owner.hwid);
    const refused = waitFor<{ code: string }>(journal.socket, 'auth_error');
    const detail = await call()<{ data: { grants: { id: string }[] } }>(
      'GET',
      `/admin/users/${staff.user.id}`,
      undefined,
      admin.token,
    );
    for (const grant of detail.body.data.grants)
      await call()('DELETE', `/admin/users/${staff.user.id}/grants/${grant.id}`, undefined, admin.token);
    expect((await refused).code).toBe('FORBIDDEN');
    await waitForClose(journal.socket);

    // An owner whose PC is released no longer reads its journal.
    const ownJournal = await openJournal(owner.token, owner.hwid);
    expect(ownJournal.ack).toEqual({ ok: true });
    const closed = waitFor<{ code: string }>(ownJournal.socket, 'auth_error');
    expect(
      (await call()('DELETE', `/admin/users/${owner.user.id}/hwid`, undefined, admin.token)).status,
    ).toBe(200);
    expect((await closed).code).toBe('FORBIDDEN');
  });
});

describe('what is kept', () => {
  it('keeps lines as written, in order, and forgets them after the retention setting', async () => {
    const { ctx } = server;
    const owner = await createBotOwner(server);
    const { hwid } = owner;
    const userId = owner.user.id;
    const awkward = [
      '',
      ' ',
      'ligne\navec\tretours',
      '😀 émoji',
      '<script>alert(1)</script>',
      "l'apostrophe ’",
    ];
    const old = new Date(Date.now() - 2 * 24 * 3_600_000);
    await recordBotLogLines(ctx, {
      userId,
      hwid,
      lines: awkward.map((message) => ({ level: 'info', time: old, message, origin: 'agent' })),
      now: old,
    });
    await recordBotLogLines(ctx, {
      userId,
      hwid,
      lines: [{ level: 'warn', time: new Date(), message: 'récent', origin: 'agent' }],
    });
    expect((await listBotLogLines(ctx, { userId, hwid })).map((kept) => kept.message)).toEqual([
      ...awkward,
      'récent',
    ]);

    // Three days by default: nothing goes; one day: the old lines go.
    await purgeBotLog(ctx);
    expect(await listBotLogLines(ctx, { userId, hwid })).toHaveLength(awkward.length + 1);
    await updateSettings(ctx, { patch: { botLogRetentionDays: 1 }, actor: SYSTEM });
    await purgeBotLog(ctx);
    expect((await listBotLogLines(ctx, { userId, hwid })).map((kept) => kept.message)).toEqual(['récent']);
    await updateSettings(ctx, { patch: { botLogRetentionDays: 3 }, actor: SYSTEM });
  });
});

describe('lines kept before they had an owner', () => {
  const MIGRATION = join(import.meta.dirname, '../../../drizzle/0019_bot_log_owner.sql');

  it('the migration gives the lines kept before to the PC’s owner now, and deletes those of a PC nobody holds', async () => {
    const { db } = server.ctx;
    // The lines as the previous schema kept them: no owner. (Replaying every earlier migration in a
    // fresh database costs 15 s; the owner column is put back as it was before the migration.)
    await db.execute(sql`ALTER TABLE bot_log_lines ALTER COLUMN user_id DROP NOT NULL`);
    const owner = await createBotOwner(server);
    const released = newHwid();
    for (const hwid of [owner.hwid, released])
      await db.execute(sql`INSERT INTO bot_log_lines (hwid, level, time, message, origin, received_at)
        VALUES (${hwid}, 'info', now(), ${hwid}, 'agent', now())`);

    // The migration's own statements about existing lines, as written in it.
    const statements = readFileSync(MIGRATION, 'utf8')
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
      .filter((statement) => /^(UPDATE|DELETE|ALTER TABLE "bot_log_lines" ALTER COLUMN)/.test(statement));
    expect(statements).toHaveLength(3);
    for (const statement of statements) await db.execute(sql.raw(statement));

    const rows = await db
      .select({ userId: botLogLines.userId, hwid: botLogLines.hwid })
      .from(botLogLines)
      .where(inArray(botLogLines.hwid, [owner.hwid, released]));
    expect(rows).toEqual([{ userId: owner.user.id, hwid: owner.hwid }]);
    const insertWithoutOwner =
      db.execute(sql`INSERT INTO bot_log_lines (hwid, level, time, message, origin, received_at)
      VALUES (${released}, 'info', now(), 'x', 'agent', now())`);
    await expect(insertWithoutOwner).rejects.toThrow();
  });
});
