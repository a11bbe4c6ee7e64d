import { PERMISSION_DESCRIPTIONS } from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { auditLog } from '../audit/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let outsider: TestUser;
let usersStaff: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  // Giving a staff permission through a role needs holding it (no privilege escalation).
  staff = await server.createUser({
    permissions: ['can_manageRoles', 'can_manageUsers', 'can_manageAudit', 'can_manageMap'],
  });
  outsider = await server.createUser({ permissions: ['can_manageUsers'] });
  usersStaff = outsider;
});
afterAll(() => server.close());

async function auditOf(action: string, targetId: string) {
  return server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));
}

describe('guards', () => {
  const someId = newId();
  it.each([
    ['GET', '/admin/roles'],
    ['GET', '/admin/roles/export.csv'],
    ['GET', `/admin/roles/${someId}`],
    ['POST', '/admin/roles', { name: 'Nouveau' }],
    ['PUT', `/admin/roles/${someId}`, { name: 'Nouveau' }],
    ['DELETE', `/admin/roles/${someId}`],
  ] as [string, string, unknown?][])(
    '%s %s: 401, 403 without can_manageRoles',
    async (method, path, body) => {
      expect((await call(method, path, body)).status).toBe(401);
      expect((await call(method, path, body, outsider.token)).status).toBe(403);
      expect([200, 201, 404]).toContain((await call(method, path, body, staff.token)).status);
    },
  );
});

describe('roles', () => {
  it('creates, lists, renames, sets permissions and deletes a role, each audited', async () => {
    const created = await call<{ data: { id: string; permissions: string[]; memberCount: number } }>(
      'POST',
      '/admin/roles',
      { name: 'Support', description: 'Équipe support', permissions: ['can_manageUsers', 'can_manageAudit'] },
      staff.token,
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data.permissions).toEqual(['can_manageAudit', 'can_manageUsers']);
    expect((await auditOf('role.create', id))[0]).toMatchObject({
      actorId: staff.user.id,
      after: { name: 'Support' },
    });

    const duplicate = await call('POST', '/admin/roles', { name: 'support' }, staff.token);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'ROLE_NAME_TAKEN' });
    expect((await call('POST', '/admin/roles', { name: 'x', extra: 1 }, staff.token)).status).toBe(400);

    const list = await call<{ data: { name: string }[]; total: number }>(
      'GET',
      '/admin/roles?q=supp&permission=can_manageAudit',
      undefined,
      staff.token,
    );
    expect(list.body.total).toBe(1);
    expect(list.body.data[0]?.name).toBe('Support');

    const renamed = await call<{ data: { name: string; description: string; permissions: string[] } }>(
      'PUT',
      `/admin/roles/${id}`,
      { name: 'Support N2' },
      staff.token,
    );
    expect(renamed.body.data).toMatchObject({ name: 'Support N2', description: 'Équipe support' });
    expect(renamed.body.data.permissions).toEqual(['can_manageAudit', 'can_manageUsers']);
    const [update] = await auditOf('role.update', id);
    expect(update).toMatchObject({ before: { name: 'Support' }, after: { name: 'Support N2' } });

    const csv = await fetch(`${server.api}/admin/roles/export.csv?q=N2`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Support N2');
    // Permissions as staff read them, not their `can_` names; `;` between cells.
    expect(lines[1]).toContain(
      `${PERMISSION_DESCRIPTIONS.can_manageAudit}, ${PERMISSION_DESCRIPTIONS.can_manageUsers}`,
    );
    expect(lines[1]).not.toContain('can_');

    expect((await call('DELETE', `/admin/roles/${id}`, undefined, staff.token)).status).toBe(204);
    expect(await call('GET', `/admin/roles/${id}`, undefined, staff.token)).toMatchObject({
      status: 404,
      body: { code: 'ROLE_NOT_FOUND' },
    });
    expect(await auditOf('role.delete', id)).toHaveLength(1);
  });

  it('refuses to delete a role while assigned (409), and a permission change reaches members at once', async () => {
    const role = await call<{ data: { id: string } }>(
      'POST',
      '/admin/roles',
      { name: 'Cartographes' },
      staff.token,
    );
    const member = await server.createUser();
    await call(
      'PUT',
      `/admin/users/${member.user.id}/roles`,
      { roleIds: [role.body.data.id] },
      usersStaff.token,
    );
    const detail = await call<{ data: { members: { id: string }[]; memberCount: number } }>(
      'GET',
      `/admin/roles/${role.body.data.id}`,
      undefined,
      staff.token,
    );
    expect(detail.body.data.memberCount).toBe(1);
    expect(detail.body.data.members.map((m) => m.id)).toEqual([member.user.id]);

    const refused = await call('DELETE', `/admin/roles/${role.body.data.id}`, undefined, staff.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'ROLE_IN_USE' });

    expect((await call('GET', '/me/permissions', undefined, member.token)).body).toEqual({ data: [] });
    await call('PUT', `/admin/roles/${role.body.data.id}`, { permissions: ['can_manageMap'] }, staff.token);
    expect((await call('GET', '/me/permissions', undefined, member.token)).body).toEqual({
      data: ['can_manageMap'],
    });
  });
});

describe('no privilege escalation', () => {
  it('refuses to put on a role a staff permission the actor does not hold', async () => {
    const rolesOnly = await server.createUser({ permissions: ['can_manageRoles'] });
    const refused = await call(
      'POST',
      '/admin/roles',
      { name: 'Escalade', permissions: ['can_manageSettings'] },
      rolesOnly.token,
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'PERMISSION_NOT_HELD',
      details: { missing: ['can_manageSettings'] },
    });
    // customer permissions are fine
    const bots = await call(
      'POST',
      '/admin/roles',
      { name: 'Testeurs', permissions: ['can_useGathering'] },
      rolesOnly.token,
    );
    expect(bots.status).toBe(201);
    const role = bots.body as { data: { id: string } };
    const edit = await call(
      'PUT',
      `/admin/roles/${role.data.id}`,
      { permissions: ['can_manageRoute'] },
      rolesOnly.token,
    );
    expect(edit.status).toBe(403);
  });
});

describe('permissions', () => {
  let permStaff: TestUser;
  beforeAll(async () => {
    permStaff = await server.createUser({ permissions: ['can_managePermissions'] });
  });

  it.each([
    ['GET', '/admin/permissions'],
    ['GET', '/admin/permissions/can_manageMap'],
    ['POST', '/admin/permissions/can_manageMap/grants', { username: 'nobody', expiresAt: null }],
    ['PATCH', `/admin/permissions/grants/${newId()}`, { expiresAt: null }],
    ['DELETE', `/admin/permissions/grants/${newId()}`],
  ] as [string, string, unknown?][])(
    '%s %s: 401, 403 without can_managePermissions',
    async (method, path, body) => {
      expect((await call(method, path, body)).status).toBe(401);
      expect((await call(method, path, body, staff.token)).status).toBe(403);
      expect([200, 404]).toContain((await call(method, path, body, permStaff.token)).status);
    },
  );

  it('lists the 13 names with descriptions and holders; grants one to a user with an end date', async () => {
    const list = await call<{ data: { name: string; description: string }[]; total: number }>(
      'GET',
      '/admin/permissions',
      undefined,
      permStaff.token,
    );
    expect(list.body.total).toBe(13);
    expect(list.body.data.every((p) => p.description.length > 0)).toBe(true);

    const target = await server.createUser();
    const end = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const granted = await call<{ data: { id: string; username: string } }>(
      'POST',
      '/admin/permissions/can_useTreasure/grants',
      { username: target.user.username, expiresAt: end },
      permStaff.token,
    );
    expect(granted.status).toBe(201);
    expect((await call('GET', '/me/permissions', undefined, target.token)).body).toEqual({
      data: ['can_useTreasure'],
    });
    const [entry] = await auditOf('grant.create', target.user.id);
    expect(entry).toMatchObject({ actorId: permStaff.user.id, after: { permission: 'can_useTreasure' } });

    const detail = await call<{
      data: { grants: { username: string; isActive: boolean }[]; activeGrantCount: number };
    }>('GET', '/admin/permissions/can_useTreasure', undefined, permStaff.token);
    expect(detail.body.data.activeGrantCount).toBe(1);
    expect(detail.body.data.grants[0]).toMatchObject({ username: target.user.username, isActive: true });

    const extended = await call(
      'PATCH',
      `/admin/permissions/grants/${granted.body.data.id}`,
      { expiresAt: null },
      permStaff.token,
    );
    expect(extended.body).toMatchObject({ data: { expiresAt: null } });
    expect(await auditOf('grant.update', target.user.id)).toHaveLength(1);
    expect(
      (await call('DELETE', `/admin/permissions/grants/${granted.body.data.id}`, undefined, permStaff.token))
        .status,
    ).toBe(204);
    expect(
      await call('DELETE', `/admin/permissions/grants/${granted.body.data.id}`, undefined, permStaff.token),
    ).toMatchObject({ status: 404, body: { code: 'PERMISSION_GRANT_NOT_FOUND' } });
    expect((await call('GET', '/me/permissions', undefined, target.token)).body).toEqual({ data: [] });
    const unknown = await call(
      'POST',
      '/admin/permissions/can_useTreasure/grants',
      { username: 'personne_inconnue', expiresAt: null },
      permStaff.token,
    );
    expect(unknown).toMatchObject({ status: 404, body: { code: 'USER_NOT_FOUND' } });
    expect((await call('GET', '/admin/permissions/can_fly', undefined, permStaff.token)).status).toBe(400);
  });
});
