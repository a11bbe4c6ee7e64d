import type { BotCommand, BotCommandDelivery } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  collect,
  createBotOwner,
  openSocket,
  type TestSocket,
  waitFor,
  whitelist,
} from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { markCommandSent } from './command-delivery.ts';
import { botCommands } from './commands.table.ts';

/**
 * Issue 43, item 5: a command belongs to its owner's time with the PC (docs/decisions/208). A command
 * the previous owner left waiting was handed to the next owner's bot once they bound the same PC.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

type Owner = Awaited<ReturnType<typeof createBotOwner>>;

/** A raw agent that records every command it is handed and never acknowledges one. */
async function rawAgent(owner: { botToken: string; hwid: string }) {
  const socket = openSocket(server, { hwid: owner.hwid });
  sockets.push(socket);
  const deliveries = collect<BotCommandDelivery>(socket, 'bot_command');
  await waitFor(socket, 'connect');
  const ack = await socket
    .timeout(5_000)
    .emitWithAck('authenticate', { type: 'bot', token: owner.botToken, hwid: owner.hwid });
  expect(ack).toEqual({ ok: true });
  return { socket, deliveries };
}

async function send(owner: { token: string }, kind: 'pause' | 'restart'): Promise<BotCommand> {
  const answer = await call<{ data: BotCommand }>('POST', '/me/bot/commands', { kind }, owner.token);
  expect(answer.status).toBe(201);
  return answer.body.data;
}

/** Another customer binding the same PC (its hwid) with a bot session of their own. */
async function nextOwner(hwid: string) {
  const next = await server.createUser({ permissions: ['can_useGathering'] });
  await whitelist(server, next.user.id, [`next-${newId().slice(-8)}`]);
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, next.token);
  const session = await call<{ token: string }>('POST', '/bot/sessions', {
    accessKey: key.body.data.accessKey,
    hwid,
    version: '1.0.0',
  });
  expect(session.status).toBe(201);
  return { ...next, hwid, botToken: session.body.token };
}

/**
 * The next owner's bot connects with a command of its own waiting: it is handed everything waiting
 * for the PC in order, so once its own arrived nothing older is still on its way.
 */
async function handedToNextOwner(next: Awaited<ReturnType<typeof nextOwner>>): Promise<string[]> {
  const own = await send(next, 'pause');
  const agent = await rawAgent(next);
  await vi.waitFor(() => expect(agent.deliveries.map((delivery) => delivery.id)).toContain(own.id));
  return agent.deliveries.map((delivery) => delivery.id).filter((id) => id !== own.id);
}

async function staffList(hwid: string): Promise<BotCommand[]> {
  const admin = await server.createUser({ isAdministrator: true });
  const answer = await call<{ data: BotCommand[] }>(
    'GET',
    `/admin/bots/${hwid}/commands`,
    undefined,
    admin.token,
  );
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** A command handed to the owner's bot (`sent`, never acknowledged) and one still `queued`. */
async function pendingCommands(owner: Owner) {
  const first = await rawAgent(owner);
  const sent = await send(owner, 'pause');
  await vi.waitFor(() => expect(first.deliveries.map((delivery) => delivery.id)).toContain(sent.id));
  first.socket.disconnect();
  // Offline once the hub has let it go: a command to a bot still online would be handed over.
  await vi.waitFor(async () => expect(await server.ctx.live.botState(owner.hwid)).toBeUndefined());
  const queued = await send(owner, 'restart');
  return { sent, queued };
}

describe('a PC changing hands takes none of its previous owner’s commands along (issue 43)', () => {
  for (const by of ['the customer', 'staff'] as const) {
    it(`an unbind by ${by} ends the owner's waiting commands, saying why, and the next owner's bot is handed none`, async () => {
      const owner = await createBotOwner(server);
      const { sent, queued } = await pendingCommands(owner);
      const admin = await server.createUser({ isAdministrator: true });
      const released =
        by === 'the customer'
          ? await call('DELETE', '/me/hwid', undefined, owner.token)
          : await call('DELETE', `/admin/users/${owner.user.id}/hwid`, undefined, admin.token);
      expect(released.status).toBe(200);

      const states = new Map((await staffList(owner.hwid)).map((command) => [command.id, command]));
      expect(states.get(queued.id)).toMatchObject({ state: 'cancelled', message: 'annulée : PC délié' });
      expect(states.get(sent.id)).toMatchObject({
        state: 'expired',
        message: 'Le PC a été délié avant que le bot ne réponde.',
      });

      expect(await handedToNextOwner(await nextOwner(owner.hwid))).toEqual([]);
    });
  }

  it('a command left waiting for a previous owner (stored before this fix) is never handed to the next owner', async () => {
    const owner = await createBotOwner(server);
    const released = await call('DELETE', '/me/hwid', undefined, owner.token);
    expect(released.status).toBe(200);
    const next = await nextOwner(owner.hwid);
    const now = new Date();
    const [left] = await server.ctx.db
      .insert(botCommands)
      .values({
        id: newId(),
        hwid: owner.hwid,
        userId: owner.user.id,
        kind: 'restart',
        state: 'queued',
        issuerId: owner.user.id,
        issuerUsername: owner.user.username,
        issuedByStaff: false,
        createdAt: new Date(now.getTime() - 60_000),
        updatedAt: now,
        expiresAt: new Date(now.getTime() + 600_000),
      })
      .returning();
    if (!left) throw new Error('commande non enregistrée');

    expect(await handedToNextOwner(next)).toEqual([]);
    // Nor by the path of a command announced while the bot is connected.
    expect(await markCommandSent(server.ctx, { id: left.id, deliveries: 0 })).toBeUndefined();
  });
});
