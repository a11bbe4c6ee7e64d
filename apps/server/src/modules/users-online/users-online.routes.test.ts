import type { OnlineBot, OnlineSession } from '@bot/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import {
  account,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  type TestSocket,
  waitFor,
  waitForClose,
} from '../../../test/helpers/realtime.ts';
import { auditLog } from '../audit/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ realtime: { adminFlushMs: 50 } });
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_manageUsersOnline'] });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

/** A bot online with the version its session was opened with (what every list shows). */
async function onlineBot(accounts: string[], version = '1.0.0') {
  const owner = await createBotOwner(server, { accounts, version });
  const { socket, ack } = await connectOwnerBot(server, owner);
  expect(ack).toEqual({ ok: true });
  sockets.push(socket);
  socket.emit('bot_update', { accounts: accounts.map((name) => account(name)) });
  return { owner, socket };
}

/** The online-bots answer, once it matches (the list follows the sockets' state). */
function waitForBots(predicate: (bots: OnlineBot[]) => boolean, query = '') {
  return vi.waitFor(async () => {
    const answer = await call<{ data: OnlineBot[]; total: number }>(
      'GET',
      `/admin/users-online/bots?pageSize=500${query}`,
      undefined,
      staff.token,
    );
    expect(answer.status).toBe(200);
    expect(predicate(answer.body.data)).toBe(true);
    return answer.body;
  });
}

async function auditEntries(action: string, targetId: string) {
  return server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));
}

describe('guards', () => {
  const routes: [string, string][] = [
    ['GET', '/admin/users-online/bots'],
    ['GET', '/admin/users-online/sessions'],
    ['POST', '/admin/users-online/bots/HW-00000000/kick'],
    ['POST', '/admin/users-online/sessions/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/revoke'],
  ];

  it('answers 401 without a session and 403 without can_manageUsersOnline', async () => {
    const other = await server.createUser({ permissions: ['can_manageMap', 'can_manageUsers'] });
    for (const [method, path] of routes) {
      expect((await call(method, path)).status, `${method} ${path}`).toBe(401);
      expect((await call(method, path, undefined, other.token)).status, `${method} ${path}`).toBe(403);
    }
  });
});

describe('connected bots', () => {
  it('says which bots are paused (their last report said so), for the commands dialog', async () => {
    const bot = await onlineBot(['Pause-1']);
    await waitForBots((bots) => bots.some((listed) => listed.hwid === bot.owner.hwid && !listed.paused));
    bot.socket.emit('bot_update', { accounts: [account('Pause-1')], paused: true });
    await waitForBots((bots) => bots.some((listed) => listed.hwid === bot.owner.hwid && listed.paused));
  });

  it('lists each connected bot with owner, hwid, version, connection times and game accounts; search and sort', async () => {
    const first = await onlineBot(['Alpha-1', 'Alpha-2']);
    const second = await onlineBot(['Beta-1']);
    const body = await waitForBots(
      (bots) =>
        bots.some((bot) => bot.hwid === first.owner.hwid && bot.accounts === 2) &&
        bots.some((bot) => bot.hwid === second.owner.hwid && bot.accounts === 1),
    );
    const listed = body.data.find((bot) => bot.hwid === first.owner.hwid);
    expect(listed).toMatchObject({
      ownerId: first.owner.user.id,
      ownerUsername: first.owner.user.username,
      version: '1.0.0',
      accounts: 2,
      accountNames: ['Alpha-1', 'Alpha-2'],
    });
    expect(Date.parse(listed?.connectedAt ?? '')).toBeGreaterThan(0);
    expect(Date.parse(listed?.lastSeenAt ?? '')).toBeGreaterThan(0);

    const searched = await waitForBots(() => true, `&q=${encodeURIComponent(second.owner.user.username)}`);
    expect(searched.data.map((bot) => bot.hwid)).toEqual([second.owner.hwid]);
    expect(searched.total).toBe(1);
    const byAccount = await waitForBots(() => true, '&q=alpha-2');
    expect(byAccount.data.map((bot) => bot.hwid)).toEqual([first.owner.hwid]);

    const ascending = await waitForBots(() => true, '&sort=accounts');
    const counts = ascending.data.map((bot) => bot.accounts);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const descending = await waitForBots(() => true, '&sort=-ownerUsername');
    const names = descending.data.map((bot) => bot.ownerUsername);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, 'fr')));
    expect((await call('GET', '/admin/users-online/bots?sort=password', undefined, staff.token)).status).toBe(
      400,
    );

    const paged = await call<{ data: OnlineBot[]; total: number }>(
      'GET',
      '/admin/users-online/bots?pageSize=1&page=2&sort=hwid',
      undefined,
      staff.token,
    );
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.total).toBeGreaterThanOrEqual(2);
  });

  it('filters by agent version: a version or its start (1.4 is 1.4.x, not 1.40)', async () => {
    const old = await onlineBot(['Ver-1'], '1.4.2');
    const newer = await onlineBot(['Ver-2'], '1.40.0');
    await waitForBots((bots) =>
      [old, newer].every(({ owner }) => bots.some((bot) => bot.hwid === owner.hwid)),
    );
    const fourteen = await waitForBots(() => true, '&version=1.4');
    expect(fourteen.data.map((bot) => bot.hwid)).toEqual([old.owner.hwid]);
    const exact = await waitForBots(() => true, '&version=1.40.0');
    expect(exact.data.map((bot) => bot.hwid)).toEqual([newer.owner.hwid]);
    expect((await waitForBots(() => true, '&version=9')).total).toBe(0);
  });

  it('kicks a bot: its socket gets BOT_KICKED and closes, it leaves the list, an audit entry is written', async () => {
    const { owner, socket } = await onlineBot(['Gamma-1']);
    await waitForBots((bots) => bots.some((bot) => bot.hwid === owner.hwid));
    const kicked = waitFor<{ code: string }>(socket, 'auth_error');
    const answer = await call('POST', `/admin/users-online/bots/${owner.hwid}/kick`, undefined, staff.token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expect((await kicked).code).toBe('BOT_KICKED');
    await waitForClose(socket);
    await waitForBots((bots) => !bots.some((bot) => bot.hwid === owner.hwid));

    const entries = await auditEntries('bot.kick', owner.hwid);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: staff.user.id,
      targetType: 'bot',
      targetLabel: owner.user.username,
    });

    const again = await call<{ code: string }>(
      'POST',
      `/admin/users-online/bots/${owner.hwid}/kick`,
      undefined,
      staff.token,
    );
    expect(again).toMatchObject({ status: 404, body: { code: 'BOT_NOT_CONNECTED' } });
    expect(
      (await call('POST', '/admin/users-online/bots/bad hwid!/kick', undefined, staff.token)).status,
    ).toBe(400);
  });
});

describe('a kick is one use case', () => {
  it('kicks nothing when its audit entry cannot be written: the bot stays connected', async () => {
    const { owner, socket } = await onlineBot(['Delta-1']);
    await waitForBots((bots) => bots.some((bot) => bot.hwid === owner.hwid));
    const told: string[] = [];
    socket.on('auth_error', ({ code }: { code: string }) => told.push(code));
    // A real failure of the audit insert, for this bot only: the database refuses the row.
    const { db } = server.ctx;
    await db.execute(
      sql.raw(`
      create or replace function refuse_kick_audit() returns trigger language plpgsql as $$
      begin
        if new.action = 'bot.kick' and new.target_id = '${owner.hwid}' then
          raise exception 'audit refusé par le test';
        end if;
        return new;
      end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_kick_audit before insert on audit_log
        for each row execute function refuse_kick_audit()`),
    );
    try {
      const answer = await call(
        'POST',
        `/admin/users-online/bots/${owner.hwid}/kick`,
        undefined,
        staff.token,
      );
      expect(answer.status).toBe(500);
    } finally {
      await db.execute(sql.raw('drop trigger refuse_kick_audit on audit_log'));
      await db.execute(sql.raw('drop function refuse_kick_audit()'));
    }

    // The same socket still answers: a kicked one would have been closed before this round trip.
    const ack = await socket.timeout(5_000).emitWithAck('bot_update', { accounts: [account('Delta-1')] });
    expect(ack).toEqual({ ok: true });
    expect(told).toEqual([]);
    expect(await auditEntries('bot.kick', owner.hwid)).toHaveLength(0);
  });
});

describe('signed-in sessions', () => {
  it('lists active sessions with their user and revokes one (401 afterwards, audited)', async () => {
    const customer = await server.createUser();
    // A request marks the session as seen.
    expect((await call('GET', '/me/info', undefined, customer.token)).status).toBe(200);
    const list = await call<{ data: OnlineSession[]; total: number }>(
      'GET',
      `/admin/users-online/sessions?q=${encodeURIComponent(customer.user.username)}`,
      undefined,
      staff.token,
    );
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    const session = list.body.data[0];
    expect(session).toMatchObject({
      userId: customer.user.id,
      username: customer.user.username,
      liveSockets: 0,
    });

    const sorted = await call<{ data: OnlineSession[] }>(
      'GET',
      '/admin/users-online/sessions?sort=username',
      undefined,
      staff.token,
    );
    const usernames = sorted.body.data.map((row) => row.username);
    expect(usernames.length).toBeGreaterThanOrEqual(2);
    expect(
      (await call('GET', '/admin/users-online/sessions?sort=tokenHash', undefined, staff.token)).status,
    ).toBe(400);

    const revoked = await call(
      'POST',
      `/admin/users-online/sessions/${session?.id}/revoke`,
      undefined,
      staff.token,
    );
    expect(revoked.status).toBe(200);
    expect((await call('GET', '/me/info', undefined, customer.token)).status).toBe(401);
    const after = await call<{ total: number }>(
      'GET',
      `/admin/users-online/sessions?q=${encodeURIComponent(customer.user.username)}`,
      undefined,
      staff.token,
    );
    expect(after.body.total).toBe(0);
    const entries = await auditEntries('session.revoke', customer.user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: staff.user.id, targetLabel: customer.user.username });

    const again = await call(
      'POST',
      `/admin/users-online/sessions/${session?.id}/revoke`,
      undefined,
      staff.token,
    );
    expect(again).toMatchObject({ status: 404, body: { code: 'SESSION_NOT_FOUND' } });
    expect(
      (await call('POST', '/admin/users-online/sessions/not-a-uuid/revoke', undefined, staff.token)).status,
    ).toBe(400);
  });

  it('closes the live sockets of a revoked session', async () => {
    const owner = await createBotOwner(server);
    const watcher = await connectAndAuthenticate(server, {
      type: 'client',
      token: owner.token,
      hwid: owner.hwid,
    });
    sockets.push(watcher.socket);
    expect(watcher.ack).toEqual({ ok: true });
    const list = await call<{ data: OnlineSession[] }>(
      'GET',
      `/admin/users-online/sessions?q=${encodeURIComponent(owner.user.username)}`,
      undefined,
      staff.token,
    );
    expect(list.body.data[0]?.liveSockets).toBe(1);
    const id = list.body.data[0]?.id;
    expect(
      (await call('POST', `/admin/users-online/sessions/${id}/revoke`, undefined, staff.token)).status,
    ).toBe(200);
    await waitForClose(watcher.socket);
    expect(watcher.socket.connected).toBe(false);
  });

  it("refuses to end an administrator's session unless the actor is an administrator", async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const list = await call<{ data: OnlineSession[] }>(
      'GET',
      `/admin/users-online/sessions?q=${encodeURIComponent(admin.user.username)}`,
      undefined,
      staff.token,
    );
    const id = list.body.data[0]?.id;
    expect(id).toBeTruthy();
    const refused = await call('POST', `/admin/users-online/sessions/${id}/revoke`, undefined, staff.token);
    expect(refused).toMatchObject({ status: 403, body: { code: 'ADMINISTRATOR_ONLY' } });
    expect((await call('GET', '/me/info', undefined, admin.token)).status).toBe(200);
    expect(
      (await call('POST', `/admin/users-online/sessions/${id}/revoke`, undefined, admin.token)).status,
    ).toBe(200);
  });
});
