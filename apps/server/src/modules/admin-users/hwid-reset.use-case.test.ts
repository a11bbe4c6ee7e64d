import type { BotState } from '@bot/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, type TestServer } from '../../../test/harness.ts';
import {
  account,
  connectAndAuthenticate,
  createBotOwner,
  newHwid,
  realtimeSuite,
  waitFor,
} from '../../../test/helpers/realtime.ts';
import { auditLog } from '../audit/index.ts';
import { botSessions } from '../bots/index.ts';
import { users } from '../users/index.ts';

let server: TestServer;
const { track, connectBot } = realtimeSuite((started) => {
  server = started;
});

async function staffMember() {
  return server.createUser({ permissions: ['can_manageUsers'] });
}

async function openBotSessions(userId: string): Promise<number> {
  const rows = await server.ctx.db
    .select({ id: botSessions.id })
    .from(botSessions)
    .where(and(eq(botSessions.userId, userId), isNull(botSessions.revokedAt)));
  return rows.length;
}

async function boundHwid(userId: string): Promise<string | null> {
  const [row] = await server.ctx.db.select({ hwid: users.hwid }).from(users).where(eq(users.id, userId));
  return row?.hwid ?? null;
}

describe('a staff hwid reset is one use case', () => {
  it('has unbound the PC, ended its bot sessions and written its audit entry when it answers', async () => {
    const owner = await createBotOwner(server);
    const bot = await connectBot(owner);
    const staff = await staffMember();
    const told = waitFor<{ code: string }>(bot.socket, 'auth_error');

    const answer = await apiClient(server)(
      'DELETE',
      `/admin/users/${owner.user.id}/hwid`,
      undefined,
      staff.token,
    );

    expect(answer.status).toBe(200);
    // Nothing left for a socket listener to do later: the sessions ended in the use case itself.
    expect(await openBotSessions(owner.user.id)).toBe(0);
    expect(await boundHwid(owner.user.id)).toBeNull();
    const entries = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.hwid_reset'), eq(auditLog.targetId, owner.user.id)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: staff.user.id, before: { hwid: owner.hwid } });
    expect((await told).code).toBe('BOT_SESSION_INVALID');
  });

  it('keeps the old PC’s still-running bot from taking the binding back; another PC binds', async () => {
    const owner = await createBotOwner(server);
    const staff = await staffMember();
    const call = apiClient(server);
    expect((await call('DELETE', `/admin/users/${owner.user.id}/hwid`, undefined, staff.token)).status).toBe(
      200,
    );

    // The old PC's agent reconnects at once with its access key, as a running bot does.
    const again = await call<{ code: string; error: string }>('POST', '/bot/sessions', {
      accessKey: owner.accessKey,
      hwid: owner.hwid,
      version: '1.0.0',
    });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('HWID_RELEASED');
    expect(again.body.error).toContain('nouveau PC');
    expect(await boundHwid(owner.user.id)).toBeNull();

    const newPc = newHwid();
    const moved = await call('POST', '/bot/sessions', {
      accessKey: owner.accessKey,
      hwid: newPc,
      version: '1.0.0',
    });
    expect(moved.status).toBe(201);
    expect(await boundHwid(owner.user.id)).toBe(newPc);
  });

  it('changes nothing and tells no socket when its audit entry cannot be written', async () => {
    const owner = await createBotOwner(server, { accounts: ['Survivant'] });
    const bot = await connectBot(owner);
    const watcher = track(
      await connectAndAuthenticate(server, { type: 'client', token: owner.token, hwid: owner.hwid }),
    );
    const staff = await staffMember();
    // A real failure of the audit insert, for this user only: the database refuses the row.
    const { db } = server.ctx;
    await db.execute(
      sql.raw(`
      create or replace function refuse_hwid_audit() returns trigger language plpgsql as $$
      begin
        if new.action = 'user.hwid_reset' and new.target_id = '${owner.user.id}' then
          raise exception 'audit refusé par le test';
        end if;
        return new;
      end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_hwid_audit before insert on audit_log
        for each row execute function refuse_hwid_audit()`),
    );
    try {
      const answer = await apiClient(server)(
        'DELETE',
        `/admin/users/${owner.user.id}/hwid`,
        undefined,
        staff.token,
      );
      expect(answer.status).toBe(500);
    } finally {
      await db.execute(sql.raw('drop trigger refuse_hwid_audit on audit_log'));
      await db.execute(sql.raw('drop function refuse_hwid_audit()'));
    }

    expect(await boundHwid(owner.user.id)).toBe(owner.hwid);
    expect(await openBotSessions(owner.user.id)).toBe(1);
    // No event was published: the bot still reports and its owner still sees it.
    bot.socket.emit('bot_update', { accounts: [account('Survivant')] });
    const state = await waitFor<BotState>(watcher.socket, 'bot_update', (s) => s.accounts.length > 0);
    expect(state.accounts.map((entry) => entry.name)).toEqual(['Survivant']);
    expect(bot.socket.connected).toBe(true);
  });

  it('resets at once: one unbinds, the others find nothing bound, one audit entry', async () => {
    const owner = await createBotOwner(server);
    const staff = await staffMember();
    const call = apiClient(server);
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => call('DELETE', '/me/hwid', undefined, owner.token)),
      ...Array.from({ length: 4 }, () =>
        call('DELETE', `/admin/users/${owner.user.id}/hwid`, undefined, staff.token),
      ),
    ]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const entries = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.hwid_reset'), eq(auditLog.targetId, owner.user.id)));
    expect(entries).toHaveLength(1);
  });
});
