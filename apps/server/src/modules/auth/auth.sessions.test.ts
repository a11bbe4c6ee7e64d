import { PERMISSIONS } from '@bot/contracts';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { apiClient, type TestServer } from '../../../test/harness.ts';
import { authSuite } from '../../../test/helpers/auth.ts';
import { announce } from '../../../test/helpers/events.ts';
import { sessions } from './sessions.table.ts';

/** What a session holds and does once signed in: permissions, logout, recorded activity. */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
authSuite((started) => {
  server = started;
  call = apiClient(server);
});

describe('permissions', () => {
  it('a customer holds none; an administrator holds all 13', async () => {
    const customer = await server.createUser();
    const admin = await server.createUser({ isAdministrator: true });
    expect((await call('GET', '/me/permissions', undefined, customer.token)).body).toEqual({ data: [] });
    expect((await call('GET', '/me/permissions', undefined, admin.token)).body).toEqual({
      data: [...PERMISSIONS],
    });
    expect(
      (await call<{ data: { Policy: unknown } }>('GET', '/me/info', undefined, admin.token)).body.data.Policy,
    ).toEqual({ IsAdministrator: true });
  });

  it('check-permission answers for one permission and for a list (all required)', async () => {
    const gatherer = await server.createUser({ permissions: ['can_useGathering'] });
    const check = (body: unknown) => call('POST', '/auth/check-permission', body, gatherer.token);
    expect((await check({ permission: 'can_useGathering' })).body).toEqual({ allowed: true });
    expect((await check({ permission: 'can_useTreasure' })).body).toEqual({ allowed: false });
    expect((await check({ permissions: ['can_useGathering'] })).body).toEqual({ allowed: true });
    expect((await check({ permissions: ['can_useGathering', 'can_useTreasure'] })).body).toEqual({
      allowed: false,
    });
    expect(await check({ permission: 'can_doAnything' })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    expect(await check({ permissions: [] })).toMatchObject({ status: 400 });
    expect((await call('POST', '/auth/check-permission', { permission: 'can_useGathering' })).status).toBe(
      401,
    );
  });

  it('ignores an expired grant', async () => {
    const user = await server.createUser({ permissions: ['can_useTreasure'] });
    const { userGrants } = await import('../access/index.ts');
    await server.ctx.db
      .update(userGrants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userGrants.userId, user.user.id));
    await announce(server.ctx, 'user.changed', { userId: user.user.id });
    expect((await call('GET', '/me/permissions', undefined, user.token)).body).toEqual({ data: [] });
  });
});

describe('logout', () => {
  it('revokes the session', async () => {
    const { token } = await server.createUser();
    expect((await call('POST', '/auth/logout', undefined, token)).body).toEqual({ success: true });
    expect(await call('GET', '/me/info', undefined, token)).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('session activity', () => {
  it("records a session's activity once, in one write for the sessions used together", async () => {
    const [first, second] = await Promise.all([server.createUser(), server.createUser()]);
    const lastSeen = async () => {
      const rows = await server.ctx.db
        .select({ userId: sessions.userId, lastSeenAt: sessions.lastSeenAt })
        .from(sessions)
        .where(inArray(sessions.userId, [first.user.id, second.user.id]));
      return new Map(rows.map((row) => [row.userId, row.lastSeenAt.getTime()]));
    };
    // No write pending (one would take a session and not the other), and as if a minute had passed
    // since these sessions were last recorded.
    const { sessionCache } = server.ctx;
    await vi.waitFor(() => expect(sessionCache.toTouch.size).toBe(0), 5_000);
    sessionCache.recentlyTouched.clear();
    const before = await lastSeen();
    await Promise.all([
      call('GET', '/me/info', undefined, first.token),
      call('GET', '/me/info', undefined, second.token),
      call('GET', '/me/info', undefined, first.token),
    ]);
    await vi.waitFor(async () => {
      const after = await lastSeen();
      expect(after.get(first.user.id)).toBeGreaterThan(before.get(first.user.id)!);
      expect(after.get(second.user.id)).toBeGreaterThan(before.get(second.user.id)!);
      // One statement wrote both.
      expect(after.get(first.user.id)).toBe(after.get(second.user.id));
    }, 5_000); // the write comes within a second
  });
});
