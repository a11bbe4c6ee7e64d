import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { auditLog } from '../audit/index.ts';

/**
 * Issue 30: a staff member holding only `can_manageUsers` could reset the two-factor of, revoke the
 * sessions of and ban a user holding more staff permissions than them; only administrators were
 * protected. Now a staff member acts on a user only if the user's staff permissions are theirs too.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let support: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  support = await server.createUser({ permissions: ['can_manageUsers'] });
});
afterAll(() => server.close());

const actionsOn = (target: TestUser) => [
  () => call('DELETE', `/admin/users/${target.user.id}/two-factor`, undefined, support.token),
  () => call('DELETE', `/admin/users/${target.user.id}/sessions`, undefined, support.token),
  () => call('POST', `/admin/users/${target.user.id}/ban`, { reason: 'Abus répété' }, support.token),
  () =>
    call(
      'POST',
      `/admin/users/${target.user.id}/grants`,
      { permission: 'can_useTreasure', expiresAt: null },
      support.token,
    ),
];

describe('staff rank (issue 30)', () => {
  it('refuses every action on a user holding staff permissions the actor lacks', async () => {
    const senior = await server.createUser({
      permissions: ['can_manageUsers', 'can_manageRoles', 'can_managePermissions', 'can_manageSettings'],
    });
    for (const action of actionsOn(senior)) {
      const answer = await action();
      expect(answer).toMatchObject({ status: 403, body: { code: 'OUTRANKED' } });
      expect((answer.body as { details: { missing: string[] } }).details.missing.sort()).toEqual([
        'can_managePermissions',
        'can_manageRoles',
        'can_manageSettings',
      ]);
      // The French labels, never the codes (they stay in details.missing).
      expect((answer.body as { error: string }).error).toContain(
        'Gérer les paramètres du site et les paiements',
      );
      expect((answer.body as { error: string }).error).not.toContain('can_');
    }
    // Nothing happened: the senior's session still works.
    expect((await call('GET', '/me/info', undefined, senior.token)).status).toBe(200);
    // An administrator may.
    const admin = await server.createUser({ isAdministrator: true });
    expect(
      (await call('DELETE', `/admin/users/${senior.user.id}/sessions`, undefined, admin.token)).status,
    ).toBe(200);
  });

  it('lets staff act on peers and customers, whose staff permissions are a subset of theirs', async () => {
    const peer = await server.createUser({ permissions: ['can_manageUsers'] });
    const customer = await server.createUser({ permissions: ['can_useGathering'] });
    expect(
      (await call('DELETE', `/admin/users/${customer.user.id}/sessions`, undefined, support.token)).status,
    ).toBe(200);
    expect(
      (await call('POST', `/admin/users/${peer.user.id}/ban`, { reason: 'Abus répété' }, support.token))
        .status,
    ).toBe(200);
  });

  it('grants bot permissions to oneself, audited as such, never a staff permission one lacks', async () => {
    const self = await call(
      'POST',
      `/admin/users/${support.user.id}/grants`,
      { permission: 'can_useGathering', expiresAt: null },
      support.token,
    );
    expect(self.status).toBe(201);
    const audited = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'grant.create_self'), eq(auditLog.targetId, support.user.id)));
    expect(audited).toHaveLength(1);
    expect(
      await call(
        'POST',
        `/admin/users/${support.user.id}/grants`,
        { permission: 'can_manageSettings', expiresAt: null },
        support.token,
      ),
    ).toMatchObject({ status: 403, body: { code: 'PERMISSION_NOT_HELD' } });
  });
});
