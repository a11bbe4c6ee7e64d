import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
  type TestUser,
} from '../../../test/harness.ts';
import type { TestSocket } from '../../../test/helpers/realtime.ts';
import { newId } from '../../core/ids.ts';
import { auditLog } from '../audit/index.ts';
import { sessions } from '../auth/index.ts';
import { users } from '../users/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_manageUsers'] });
});
const sockets: TestSocket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

async function auditOf(action: string, targetId: string) {
  return server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));
}

describe('actions', () => {
  it('activates by hand and resends activation, audited', async () => {
    const pending = await server.createUser({ activated: false });
    const resend = await call(
      'POST',
      `/admin/users/${pending.user.id}/resend-activation`,
      undefined,
      staff.token,
    );
    expect(resend.status).toBe(200);
    const mail = await server.mail.waitFor({ to: pending.user.email });
    expect(mail.text).toContain('token=');
    expect(await auditOf('user.resend_activation', pending.user.id)).toHaveLength(1);
    const banned = await server.createUser({ activated: false });
    await server.ctx.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, banned.user.id));
    expect(
      await call('POST', `/admin/users/${banned.user.id}/resend-activation`, undefined, staff.token),
    ).toMatchObject({ status: 409, body: { code: 'USER_BANNED' } });

    const activated = await call<{ data: { activated: boolean } }>(
      'POST',
      `/admin/users/${pending.user.id}/activate`,
      undefined,
      staff.token,
    );
    expect(activated.status).toBe(200);
    expect(activated.body.data.activated).toBe(true);
    const [entry] = await auditOf('user.activate', pending.user.id);
    expect(entry).toMatchObject({
      actorId: staff.user.id,
      before: { activated: false },
      after: { activated: true },
    });
    expect(
      (await call('POST', `/admin/users/${pending.user.id}/activate`, undefined, staff.token)).status,
    ).toBe(409);
  });

  it('bans with a reason: sessions end at once, sign-in is refused; unban restores sign-in', async () => {
    const target = await server.createUser();
    expect((await call('GET', '/me/info', undefined, target.token)).status).toBe(200);
    let banned = false;
    const stop = server.ctx.events.on('user.banned', ({ userId }) => {
      if (userId === target.user.id) banned = true;
    });
    expect(
      (await call('POST', `/admin/users/${target.user.id}/ban`, { reason: 'x' }, staff.token)).status,
    ).toBe(400);
    const ban = await call<{ data: { bannedAt: string; banReason: string } }>(
      'POST',
      `/admin/users/${target.user.id}/ban`,
      { reason: 'Triche avérée' },
      staff.token,
    );
    stop();
    expect(ban.status).toBe(200);
    expect(ban.body.data.banReason).toBe('Triche avérée');
    expect(banned).toBe(true);
    expect((await call('GET', '/me/info', undefined, target.token)).status).toBe(401);
    const live = await server.ctx.db.select().from(sessions).where(eq(sessions.userId, target.user.id));
    expect(live.every((session) => session.revokedAt !== null)).toBe(true);
    const login = await call('POST', '/auth/login', {
      username: target.user.username,
      password: TEST_PASSWORD,
    });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ code: 'ACCOUNT_BANNED' });
    const [entry] = await auditOf('user.ban', target.user.id);
    expect(entry).toMatchObject({ actorId: staff.user.id, after: { banned: true, reason: 'Triche avérée' } });
    expect(
      (await call('POST', `/admin/users/${target.user.id}/ban`, { reason: 'encore' }, staff.token)).status,
    ).toBe(409);

    expect((await call('POST', `/admin/users/${target.user.id}/unban`, undefined, staff.token)).status).toBe(
      200,
    );
    expect(await auditOf('user.unban', target.user.id)).toHaveLength(1);
    const again = await call('POST', '/auth/login', {
      username: target.user.username,
      password: TEST_PASSWORD,
    });
    expect(again.status).toBe(200);
  });

  it('refuses to ban oneself or an administrator', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    expect(
      (await call('POST', `/admin/users/${staff.user.id}/ban`, { reason: 'moi-même' }, staff.token)).body,
    ).toMatchObject({ code: 'BAN_SELF' });
    expect(
      await call('POST', `/admin/users/${admin.user.id}/ban`, { reason: 'administrateur' }, staff.token),
    ).toMatchObject({ status: 403, body: { code: 'BAN_ADMINISTRATOR' } });
  });

  it('sets roles: permissions change on the next request, audited with before/after', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const role = await call<{ data: { id: string } }>(
      'POST',
      '/admin/roles',
      { name: 'Modérateurs audit', permissions: ['can_manageAudit'] },
      admin.token,
    );
    const target = await server.createUser();
    expect((await call('GET', '/admin/audit', undefined, target.token)).status).toBe(403);
    // staff cannot give through a role a staff permission they do not hold
    const escalation = await call(
      'PUT',
      `/admin/users/${target.user.id}/roles`,
      { roleIds: [role.body.data.id] },
      staff.token,
    );
    expect(escalation.status).toBe(403);
    expect(escalation.body).toMatchObject({
      code: 'PERMISSION_NOT_HELD',
      details: { missing: ['can_manageAudit'] },
    });
    // Staff read the permission's French label, never its code (the code stays in details).
    expect((escalation.body as { error: string }).error).toContain("Consulter le journal d'audit");
    expect((escalation.body as { error: string }).error).not.toContain('can_');
    const senior = await server.createUser({ permissions: ['can_manageUsers', 'can_manageAudit'] });
    const set = await call<{ data: { roles: { name: string }[]; permissions: string[] } }>(
      'PUT',
      `/admin/users/${target.user.id}/roles`,
      { roleIds: [role.body.data.id] },
      senior.token,
    );
    expect(set.status).toBe(200);
    expect(set.body.data.roles.map((r) => r.name)).toEqual(['Modérateurs audit']);
    expect(set.body.data.permissions).toEqual(['can_manageAudit']);
    const options = await call<{ data: { name: string }[] }>(
      'GET',
      '/admin/users/role-options',
      undefined,
      staff.token,
    );
    expect(options.body.data.map((r) => r.name)).toContain('Modérateurs audit');
    expect((await call('GET', '/admin/audit', undefined, target.token)).status).toBe(200);
    const [entry] = await auditOf('user.roles', target.user.id);
    expect(entry).toMatchObject({ before: { roles: [] }, after: { roles: ['Modérateurs audit'] } });
    const unknown = await call(
      'PUT',
      `/admin/users/${target.user.id}/roles`,
      { roleIds: [newId()] },
      senior.token,
    );
    expect(unknown.body).toMatchObject({ code: 'UNKNOWN_ROLE' });
  });

  it('grants, extends and removes a permission with an end date', async () => {
    const target = await server.createUser();
    const end = new Date(Date.now() + 86_400_000).toISOString();
    const past = await call(
      'POST',
      `/admin/users/${target.user.id}/grants`,
      { permission: 'can_useTreasure', expiresAt: '2001-01-01T00:00:00Z' },
      staff.token,
    );
    expect(past.status).toBe(400);
    const escalation = await call(
      'POST',
      `/admin/users/${target.user.id}/grants`,
      { permission: 'can_manageSettings', expiresAt: end },
      staff.token,
    );
    expect(escalation.status).toBe(403);
    const admin = await server.createUser({ isAdministrator: true });
    const onAdmin = await call('DELETE', `/admin/users/${admin.user.id}/sessions`, undefined, staff.token);
    expect(onAdmin.status).toBe(403);
    expect(onAdmin.body).toMatchObject({
      code: 'ADMINISTRATOR_ONLY',
      error: 'Seul un administrateur peut modifier ou consulter un compte administrateur.',
    });
    const granted = await call<{ data: { id: string; expiresAt: string; isActive: boolean } }>(
      'POST',
      `/admin/users/${target.user.id}/grants`,
      { permission: 'can_useTreasure', expiresAt: end },
      staff.token,
    );
    expect(granted.status).toBe(201);
    expect(granted.body.data.isActive).toBe(true);
    expect((await call('GET', '/me/permissions', undefined, target.token)).body).toEqual({
      data: ['can_useTreasure'],
    });
    const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const extended = await call<{ data: { expiresAt: string } }>(
      'PATCH',
      `/admin/users/${target.user.id}/grants/${granted.body.data.id}`,
      { expiresAt: later },
      staff.token,
    );
    expect(extended.status).toBe(200);
    expect(Date.parse(extended.body.data.expiresAt)).toBe(Date.parse(later));
    const detail = await call<{ data: { grants: { id: string }[] } }>(
      'GET',
      `/admin/users/${target.user.id}`,
      undefined,
      staff.token,
    );
    expect(detail.body.data.grants.map((g) => g.id)).toEqual([granted.body.data.id]);
    const removed = await call(
      'DELETE',
      `/admin/users/${target.user.id}/grants/${granted.body.data.id}`,
      undefined,
      staff.token,
    );
    expect(removed.status).toBe(204);
    expect((await call('GET', '/me/permissions', undefined, target.token)).body).toEqual({ data: [] });
    expect(await auditOf('grant.create', target.user.id)).toHaveLength(1);
    expect(await auditOf('grant.update', target.user.id)).toHaveLength(1);
    expect(await auditOf('grant.delete', target.user.id)).toHaveLength(1);
    // the user's timeline shows them, newest first
    const timeline = await call<{ data: { action: string }[] }>(
      'GET',
      `/admin/users/${target.user.id}/audit`,
      undefined,
      staff.token,
    );
    expect(timeline.body.data.map((e) => e.action).slice(0, 3)).toEqual([
      'grant.delete',
      'grant.update',
      'grant.create',
    ]);
  });

  it('resets the hwid without cooldown and sets the Discord id, audited', async () => {
    const target = await server.createUser();
    await server.ctx.db
      .update(users)
      .set({ hwid: 'HWID-RESET-TEST-1', hwidResetAt: new Date() })
      .where(eq(users.id, target.user.id));
    const reset = await call<{ data: { hwid: string | null } }>(
      'DELETE',
      `/admin/users/${target.user.id}/hwid`,
      undefined,
      staff.token,
    );
    expect(reset.status).toBe(200);
    expect(reset.body.data.hwid).toBeNull();
    const [hwidEntry] = await auditOf('user.hwid_reset', target.user.id);
    expect(hwidEntry?.actorId).toBe(staff.user.id);
    expect((await call('DELETE', `/admin/users/${target.user.id}/hwid`, undefined, staff.token)).status).toBe(
      409,
    );

    const discord = await call<{ data: { discordId: string } }>(
      'PUT',
      `/admin/users/${target.user.id}/discord`,
      { discordId: 'joueur#1234' },
      staff.token,
    );
    expect(discord.body.data.discordId).toBe('joueur#1234');
    const [entry] = await auditOf('user.discord', target.user.id);
    expect(entry).toMatchObject({ before: { discordId: null }, after: { discordId: 'joueur#1234' } });
  });

  it('lists and revokes sessions', async () => {
    const target = await server.createUser();
    const second = await call<{ token: string }>('POST', '/auth/login', {
      username: target.user.username,
      password: TEST_PASSWORD,
    });
    const list = await call<{ data: { id: string; isActive: boolean }[] }>(
      'GET',
      `/admin/users/${target.user.id}/sessions`,
      undefined,
      staff.token,
    );
    expect(list.body.data).toHaveLength(2);
    const [newest] = list.body.data;
    const one = await call(
      'DELETE',
      `/admin/users/${target.user.id}/sessions/${newest!.id}`,
      undefined,
      staff.token,
    );
    expect(one.body).toEqual({ revoked: 1 });
    expect((await call('GET', '/me/info', undefined, second.body.token)).status).toBe(401);
    expect((await call('GET', '/me/info', undefined, target.token)).status).toBe(200);
    const all = await call('DELETE', `/admin/users/${target.user.id}/sessions`, undefined, staff.token);
    expect(all.body).toEqual({ revoked: 1 });
    expect((await call('GET', '/me/info', undefined, target.token)).status).toBe(401);
    expect(await auditOf('user.sessions_revoke', target.user.id)).toHaveLength(2);
  });
});
