import type { Permission } from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { connectOwnerBot, createBotOwner } from '../../../test/helpers/realtime.ts';
import { getUserPermissions, userGrants } from '../access/index.ts';

/**
 * The staff-rank checks of decision 404 read the actor's permissions inside the change's
 * transaction, as committed, not a set read before it. A withdrawal the node has not heard of yet
 * (made on another node, whose `user.changed` is still on its way; or committed between a check
 * and the write) leaves this node's cache holding the old set: the checks must not trust it.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
});
afterAll(() => server.close());

/** A staff member holding `staff` and `can_manageSettings`, whose cache still holds the latter once it is withdrawn. */
async function staffLosingSettings(staff: Permission[]): Promise<TestUser> {
  const actor = await server.createUser({ permissions: [...staff, 'can_manageSettings'] });
  const { ctx } = server;
  expect(await getUserPermissions(ctx, actor.user.id)).toContain('can_manageSettings');
  await ctx.db
    .delete(userGrants)
    .where(and(eq(userGrants.userId, actor.user.id), eq(userGrants.permission, 'can_manageSettings')));
  return actor;
}

const refused = { status: 403 };

describe('a staff permission withdrawn before the change cannot slip through', () => {
  it('a command to the bot of an account holding it', async () => {
    const owner = await createBotOwner(server, { permissions: ['can_useGathering', 'can_manageSettings'] });
    const actor = await staffLosingSettings(['can_manageMap']);
    const sent = await call('POST', `/admin/bots/${owner.hwid}/commands`, { kind: 'pause' }, actor.token);
    expect(sent).toMatchObject(refused);
  });

  it('the cancellation of a command to the bot of an account holding it', async () => {
    const owner = await createBotOwner(server, { permissions: ['can_useGathering', 'can_manageSettings'] });
    const admin = await server.createUser({ isAdministrator: true });
    // The bot is offline: the command stays queued, so it can be cancelled.
    const sent = await call<{ data: { id: string } }>(
      'POST',
      `/admin/bots/${owner.hwid}/commands`,
      { kind: 'pause' },
      admin.token,
    );
    expect(sent.status).toBe(201);
    const actor = await staffLosingSettings(['can_manageMap']);
    const cancelled = await call(
      'POST',
      `/admin/bots/${owner.hwid}/commands/${sent.body.data.id}/cancel`,
      undefined,
      actor.token,
    );
    expect(cancelled).toMatchObject(refused);
  });

  it('a kick of the bot of an account holding it', async () => {
    const owner = await createBotOwner(server, { permissions: ['can_useGathering', 'can_manageSettings'] });
    const { socket } = await connectOwnerBot(server, owner);
    try {
      await vi.waitFor(async () =>
        expect(await server.ctx.live.botState(owner.hwid)).toMatchObject({ online: true }),
      );
      const actor = await staffLosingSettings(['can_manageUsersOnline']);
      const kicked = await call(
        'POST',
        `/admin/users-online/bots/${owner.hwid}/kick`,
        undefined,
        actor.token,
      );
      expect(kicked).toMatchObject(refused);
      expect(socket.connected).toBe(true);
    } finally {
      socket.disconnect();
    }
  });

  it('a new activation link for an account holding it', async () => {
    const target = await server.createUser({ activated: false, permissions: ['can_manageSettings'] });
    const actor = await staffLosingSettings(['can_manageUsers']);
    const resent = await call(
      'POST',
      `/admin/users/${target.user.id}/resend-activation`,
      undefined,
      actor.token,
    );
    expect(resent).toMatchObject(refused);
  });

  it('a role carrying it', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const role = await call<{ data: { id: string } }>(
      'POST',
      '/admin/roles',
      { name: 'Réglages', permissions: ['can_manageSettings'] },
      admin.token,
    );
    const customer = await server.createUser();
    const actor = await staffLosingSettings(['can_manageUsers']);
    const given = await call(
      'PUT',
      `/admin/users/${customer.user.id}/roles`,
      { roleIds: [role.body.data.id] },
      actor.token,
    );
    expect(given).toMatchObject(refused);
  });

  it('a direct grant of it', async () => {
    const customer = await server.createUser();
    const actor = await staffLosingSettings(['can_managePermissions']);
    const granted = await call(
      'POST',
      '/admin/permissions/can_manageSettings/grants',
      { username: customer.user.username, expiresAt: null },
      actor.token,
    );
    expect(granted).toMatchObject(refused);
  });
});
