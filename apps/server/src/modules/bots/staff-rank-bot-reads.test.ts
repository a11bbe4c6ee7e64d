import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { announce } from '../../../test/helpers/events.ts';
import {
  account,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  type TestSocket,
  waitFor,
} from '../../../test/helpers/realtime.ts';
import { users } from '../users/index.ts';

/**
 * Issue 43, item 8: any holder of `can_manageMap`, `can_manageUsers` or `can_manageUsersOnline` read
 * the bot timeline, the command list and the bot log of any user, an administrator's included. A
 * PC's data is its owner's: reading it follows the staff rank of writes (docs/decisions/404).
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let mapStaff: TestUser;
let onlineStaff: TestUser;
let adminBot: Awaited<ReturnType<typeof createBotOwner>>;
let customerBot: Awaited<ReturnType<typeof createBotOwner>>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  mapStaff = await server.createUser({ permissions: ['can_manageMap'] });
  onlineStaff = await server.createUser({ permissions: ['can_manageUsersOnline'] });
  adminBot = await createBotOwner(server);
  await server.ctx.db.update(users).set({ isAdministrator: true }).where(eq(users.id, adminBot.user.id));
  await announce(server.ctx, 'user.changed', { userId: adminBot.user.id });
  customerBot = await createBotOwner(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

const botReads = (hwid: string) => [
  `/admin/bots/${hwid}/timeline`,
  `/admin/bots/${hwid}/commands`,
  `/admin/bots/${hwid}/log`,
];

describe('reads of a bot follow its owner’s rank (issue 43)', () => {
  it('refuses the timeline, commands and log of an administrator’s bot to map and users-online staff', async () => {
    for (const reader of [mapStaff, onlineStaff]) {
      for (const read of botReads(adminBot.hwid)) {
        const answer = await call('GET', read, undefined, reader.token);
        expect(answer, read).toMatchObject({ status: 403, body: { code: 'ADMINISTRATOR_ONLY' } });
      }
    }
  });

  it('still answers the same reads about a customer’s bot', async () => {
    for (const reader of [mapStaff, onlineStaff]) {
      for (const read of botReads(customerBot.hwid)) {
        expect((await call('GET', read, undefined, reader.token)).status, read).toBe(200);
      }
    }
  });

  it('refuses to watch an administrator’s bot or its journal over the socket, not a customer’s', async () => {
    for (const type of ['client', 'log'] as const) {
      const refused = await connectAndAuthenticate(server, {
        type,
        token: mapStaff.token,
        hwid: adminBot.hwid,
      });
      sockets.push(refused.socket);
      expect(refused.ack, type).toMatchObject({ ok: false, code: 'FORBIDDEN' });
      const allowed = await connectAndAuthenticate(server, {
        type,
        token: mapStaff.token,
        hwid: customerBot.hwid,
      });
      sockets.push(allowed.socket);
      expect(allowed.ack, type).toMatchObject({ ok: true });
    }
  });
});

describe('a staff member watching a bot loses it with the rank (issue 43)', () => {
  it('closes the watch of a bot whose owner holds a permission the watcher just lost', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const seniorBot = await createBotOwner(server, {
      permissions: ['can_useGathering', 'can_manageSettings'],
    });
    const watcher = await server.createUser({ permissions: ['can_manageMap', 'can_manageSettings'] });
    const { socket, ack } = await connectAndAuthenticate(server, {
      type: 'client',
      token: watcher.token,
      hwid: seniorBot.hwid,
    });
    sockets.push(socket);
    expect(ack).toMatchObject({ ok: true });
    const closed = waitFor(socket, 'auth_error');
    const detail = await call<{ data: { grants: { id: string; permission: string }[] } }>(
      'GET',
      `/admin/users/${watcher.user.id}`,
      undefined,
      admin.token,
    );
    const grant = detail.body.data.grants.find((entry) => entry.permission === 'can_manageSettings');
    expect(
      (await call('DELETE', `/admin/users/${watcher.user.id}/grants/${grant?.id}`, undefined, admin.token))
        .status,
    ).toBe(204);
    expect(await closed).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('the users-online list of bots shows an outranking owner’s bot without its game accounts (issue 43)', () => {
  it('blanks the game accounts of an administrator’s bot and finds it by its owner’s name only', async () => {
    for (const owner of [adminBot, customerBot]) {
      const { socket, ack } = await connectOwnerBot(server, owner);
      sockets.push(socket);
      expect(ack).toMatchObject({ ok: true });
      socket.emit('bot_update', { accounts: owner.accounts.map((name) => account(name)) });
    }
    type Bot = { hwid: string; ownerId: string; accountNames: string[] };
    const list = (q = '') =>
      call<{ data: Bot[] }>('GET', `/admin/users-online/bots?pageSize=500${q}`, undefined, onlineStaff.token);
    await vi.waitFor(async () => {
      const { body } = await list();
      expect(body.data.find((bot) => bot.hwid === customerBot.hwid)?.accountNames).toEqual(
        customerBot.accounts,
      );
      expect(body.data.find((bot) => bot.hwid === adminBot.hwid)).toMatchObject({
        ownerId: adminBot.user.id,
        accountNames: [],
      });
    });
    const byAccount = await list(`&q=${encodeURIComponent(adminBot.accounts[0]!)}`);
    expect(byAccount.body.data.map((bot) => bot.hwid)).not.toContain(adminBot.hwid);
    const byName = await list(`&q=${encodeURIComponent(adminBot.user.username)}`);
    expect(byName.body.data.map((bot) => bot.hwid)).toContain(adminBot.hwid);
  });
});
