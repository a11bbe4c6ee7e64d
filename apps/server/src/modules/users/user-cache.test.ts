import type { User } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { announce } from '../../../test/helpers/events.ts';
import { newHwid } from '../../../test/helpers/realtime.ts';
import { users } from './users.table.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
});
afterAll(() => server.close());

const infoOf = async (token: string): Promise<User> =>
  (await call<{ data: User }>('GET', '/me/info', undefined, token)).body.data;

describe('GET /api/me/info is served from a per-node cache that every change of the user drops', () => {
  it('answers from the cache: a change nobody announced is not read back until one is', async () => {
    const owner = await server.createUser();
    expect((await infoOf(owner.token)).discordId).toBeNull();
    // Written behind the product's back (no event): the cached object is still answered...
    await server.ctx.db.update(users).set({ discordId: 'silent#0001' }).where(eq(users.id, owner.user.id));
    expect((await infoOf(owner.token)).discordId).toBeNull();
    // ...until a change of that user is announced, here or on another node.
    await announce(server.ctx, 'user.changed', { userId: owner.user.id });
    expect((await infoOf(owner.token)).discordId).toBe('silent#0001');
  });

  it('shows at once a Discord id set by the user and by staff', async () => {
    const owner = await server.createUser();
    const staff = await server.createUser({ permissions: ['can_manageUsers'] });
    await infoOf(owner.token);
    expect((await call('PUT', '/me/discord', { discordId: 'mine#0001' }, owner.token)).status).toBe(200);
    expect((await infoOf(owner.token)).discordId).toBe('mine#0001');
    const set = await call(
      'PUT',
      `/admin/users/${owner.user.id}/discord`,
      { discordId: 'staff#0002' },
      staff.token,
    );
    expect(set.status).toBe(200);
    expect((await infoOf(owner.token)).discordId).toBe('staff#0002');
  });

  it('shows at once a role given by staff, and its new name when it is renamed', async () => {
    const owner = await server.createUser();
    const admin = await server.createUser({ isAdministrator: true });
    const role = await call<{ data: { id: string } }>(
      'POST',
      '/admin/roles',
      { name: 'Testeurs', permissions: [] },
      admin.token,
    );
    expect(role.status).toBe(201);
    expect((await infoOf(owner.token)).roles).toEqual([]);
    const roleId = role.body.data.id;
    await call('PUT', `/admin/users/${owner.user.id}/roles`, { roleIds: [roleId] }, admin.token);
    expect((await infoOf(owner.token)).roles).toEqual([{ id: roleId, name: 'Testeurs' }]);
    expect((await call('PUT', `/admin/roles/${roleId}`, { name: 'Bêta-testeurs' }, admin.token)).status).toBe(
      200,
    );
    expect((await infoOf(owner.token)).roles).toEqual([{ id: roleId, name: 'Bêta-testeurs' }]);
  });

  it('shows at once the PC a bot binds and its release', async () => {
    const owner = await server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] });
    expect((await infoOf(owner.token)).hwid).toBeNull();
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
    const hwid = newHwid();
    const opened = await call('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid,
      version: '1.2.3',
    });
    expect(opened.status).toBe(201);
    expect((await infoOf(owner.token)).hwid).toBe(hwid);
    expect((await call('DELETE', '/me/hwid', undefined, owner.token)).status).toBe(200);
    expect((await infoOf(owner.token)).hwid).toBeNull();
  });
});
