import { hashHwidComponents, type RawHwidComponents } from '@bot/bot-agent';
import type { BotLogLine, BotLogLineInput, BotLogLines } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  connectAndAuthenticate,
  newHwid,
  openSocket,
  type TestSocket,
  waitFor,
  whitelist,
} from '../../../test/helpers/realtime.ts';
import { recordBotLogLines } from './bot-log.service.ts';
import { botLogLines } from './bot-log.table.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { botSession: { max: 10_000, windowMs: 60_000 } } });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

async function newOwner() {
  const owner = await server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] });
  await whitelist(server, owner.user.id, [`acc-${newHwid().slice(-8)}`]);
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  return { ...owner, accessKey: key.body.data.accessKey };
}

/** The raw parts of a fresh PC (the SDK sends their HMACs). */
function newPc(): Required<RawHwidComponents> {
  const tag = newHwid();
  return {
    machine: `machine-${tag}`,
    disk: `disk-${tag}`,
    board: `board-${tag}`,
    nic: `02:00:${tag.slice(-8)}`,
    cpu: `cpu-${tag}`,
  };
}

/**
 * An agent on that PC as it speaks to the server (a session with the PC's parts, then a bot socket);
 * `log` sends lines once it was told to stream.
 */
async function agentOn(owner: { accessKey: string }, pc: { hwid: string; parts: RawHwidComponents }) {
  const session = await call<{ hwid: string; token: string }>('POST', '/bot/sessions', {
    accessKey: owner.accessKey,
    hwid: pc.hwid,
    version: '1.0.0',
    components: hashHwidComponents(pc.parts),
  });
  expect(session.status).toBe(201);
  expect(session.body.hwid).toBe(pc.hwid);
  const socket = openSocket(server, { hwid: pc.hwid });
  sockets.push(socket);
  let streaming = false;
  socket.on('bot_log_start', () => {
    streaming = true;
  });
  await waitFor(socket, 'connect');
  const ack = await socket
    .timeout(5_000)
    .emitWithAck('authenticate', { type: 'bot', token: session.body.token, hwid: pc.hwid });
  expect(ack).toEqual({ ok: true });
  const log = async (...messages: string[]) => {
    await vi.waitFor(() => expect(streaming).toBe(true));
    const lines: BotLogLineInput[] = messages.map((message) => ({
      level: 'info',
      time: new Date().toISOString(),
      message,
    }));
    socket.emit('bot_log', { lines, backlog: true });
  };
  return { socket, log };
}

async function openJournal(token: string, hwid: string) {
  const { socket, ack } = await connectAndAuthenticate(server, { type: 'log', token, hwid });
  expect(ack).toEqual({ ok: true });
  sockets.push(socket);
  const received: BotLogLine[] = [];
  socket.on('bot_log', (batch: BotLogLines) => received.push(...batch.lines));
  return { socket, received };
}

const journalOf = async (token: string, path = '/me/bot/log') =>
  (await call<{ data: BotLogLine[] }>('GET', path, undefined, token)).body.data.map((line) => line.message);

describe('a bot log belongs to the owner of the PC when it was written', () => {
  for (const unbind of ['the customer', 'staff'] as const) {
    it(`unbound by ${unbind}, the PC's next owner reads none of the previous owner's lines`, async () => {
      const admin = await server.createUser({ isAdministrator: true });
      const first = await newOwner();
      const pc = { hwid: newHwid(), parts: newPc() };
      const agent = await agentOn(first, pc);
      const journal = await openJournal(first.token, pc.hwid);
      await agent.log('ligne du premier propriétaire', 'carte (12,-4)');
      await vi.waitFor(() => expect(journal.received).toHaveLength(2));
      expect(await journalOf(first.token)).toContain('ligne du premier propriétaire');

      const closed = waitFor(journal.socket, 'auth_error');
      const released =
        unbind === 'the customer'
          ? await call('DELETE', '/me/hwid', undefined, first.token)
          : await call('DELETE', `/admin/users/${first.user.id}/hwid`, undefined, admin.token);
      expect(released.status).toBe(200);
      await closed;
      agent.socket.disconnect();
      // A batch of the previous owner's agent still on its way is not kept.
      expect(
        await recordBotLogLines(server.ctx, {
          userId: first.user.id,
          hwid: pc.hwid,
          lines: [{ level: 'info', time: new Date(), message: 'en retard', origin: 'agent' }],
        }),
      ).toEqual([]);
      // The lines went with the binding, in its transaction.
      expect(await server.ctx.db.select().from(botLogLines).where(eq(botLogLines.hwid, pc.hwid))).toEqual([]);

      // Another account binds the same PC (same hwid, same parts) and reads its journal.
      const next = await newOwner();
      const nextAgent = await agentOn(next, pc);
      expect(await journalOf(next.token)).toEqual([]);
      expect(await journalOf(admin.token, `/admin/bots/${pc.hwid}/log`)).toEqual([]);
      const nextJournal = await openJournal(next.token, pc.hwid);
      await nextAgent.log('ligne du nouveau propriétaire');
      await vi.waitFor(() => expect(nextJournal.received.map((line) => line.message)).toHaveLength(1));
      const shown = [...nextJournal.received.map((line) => line.message), ...(await journalOf(next.token))];
      expect(shown).toEqual(['ligne du nouveau propriétaire', 'ligne du nouveau propriétaire']);
    });
  }
});
