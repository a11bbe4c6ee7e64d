import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from '../../../test/harness.ts';
import { auditLog } from '../audit/index.ts';
import { updateSettings } from '../settings/index.ts';
import { users } from '../users/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
});
afterAll(() => server.close());

const bindHwid = (userId: string, hwid: string) =>
  server.ctx.db.update(users).set({ hwid }).where(eq(users.id, userId));

describe('every /me call needs a live session', () => {
  it.each([
    ['GET', '/me/info'],
    ['GET', '/me/permissions'],
    ['PUT', '/me/password'],
    ['PUT', '/me/discord'],
    ['DELETE', '/me/hwid'],
    ['GET', '/me/bot-key'],
    ['POST', '/me/bot-key'],
  ])('%s %s answers 401 without or with a bad token', async (method, route) => {
    expect(await call(method, route)).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect((await call(method, route, undefined, 'not-a-real-token')).status).toBe(401);
  });
});

describe('PUT /me/password', () => {
  it('refuses a wrong current password', async () => {
    const { token } = await server.createUser();
    const answer = await call(
      'PUT',
      '/me/password',
      { currentPassword: 'Pas-Le-Bon', newPassword: 'Girafe-Bleue-Du-Matin-4' },
      token,
    );
    expect(answer).toMatchObject({ status: 400, body: { code: 'WRONG_PASSWORD' } });
  });

  it('changes the password and revokes the other sessions, not the current one', async () => {
    const { user, token } = await server.createUser();
    const other = await call<{ token: string }>('POST', '/auth/login', {
      username: user.username,
      password: TEST_PASSWORD,
    });
    const newPassword = 'Girafe-Bleue-Du-Matin-4';
    expect(
      (await call('PUT', '/me/password', { currentPassword: TEST_PASSWORD, newPassword }, token)).body,
    ).toEqual({ success: true });
    expect((await call('GET', '/me/info', undefined, token)).status).toBe(200);
    expect((await call('GET', '/me/info', undefined, other.body.token)).status).toBe(401);
    expect(
      (await call('POST', '/auth/login', { username: user.username, password: newPassword })).status,
    ).toBe(200);
    const entries = await server.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.password_changed'));
    expect(entries.map((entry) => entry.targetId)).toContain(user.id);
  });
});

describe('PUT /me/discord', () => {
  it('sets and clears the Discord id', async () => {
    const { token } = await server.createUser();
    expect((await call('PUT', '/me/discord', { discordId: 'joueur#1234' }, token)).body).toMatchObject({
      data: { discordId: 'joueur#1234' },
    });
    expect((await call('GET', '/me/info', undefined, token)).body).toMatchObject({
      data: { discordId: 'joueur#1234' },
    });
    expect((await call('PUT', '/me/discord', { discordId: null }, token)).body).toMatchObject({
      data: { discordId: null },
    });
    expect((await call('PUT', '/me/discord', { discordId: 'x'.repeat(65) }, token)).status).toBe(400);
    expect((await call('PUT', '/me/discord', {}, token)).status).toBe(400);
  });
});

describe('DELETE /me/hwid', () => {
  it('answers 409 when no PC is bound', async () => {
    const { token } = await server.createUser();
    expect(await call('DELETE', '/me/hwid', undefined, token)).toMatchObject({
      status: 409,
      body: { code: 'HWID_NOT_BOUND' },
    });
  });

  it('unbinds the PC, then refuses a second reset during the cooldown with Retry-After', async () => {
    const { user, token } = await server.createUser();
    await bindHwid(user.id, 'HWID-AAAA-0001');
    const first = await call<{ data: { hwid: string | null }; nextResetAt: string }>(
      'DELETE',
      '/me/hwid',
      undefined,
      token,
    );
    expect(first.status).toBe(200);
    expect(first.body.data.hwid).toBeNull();
    const hoursAhead = (Date.parse(first.body.nextResetAt) - Date.now()) / 3_600_000;
    expect(hoursAhead).toBeGreaterThan(23.9);
    expect(hoursAhead).toBeLessThanOrEqual(24);

    await bindHwid(user.id, 'HWID-AAAA-0002');
    const second = await call('DELETE', '/me/hwid', undefined, token);
    expect(second).toMatchObject({ status: 429, body: { code: 'HWID_RESET_COOLDOWN' } });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
  });

  it('follows the cooldown setting', async () => {
    await updateSettings(server.ctx, {
      patch: { hwidResetCooldownHours: 0 },
      actor: { id: null, username: 'test', ip: null },
    });
    try {
      const { user, token } = await server.createUser();
      await bindHwid(user.id, 'HWID-BBBB-0001');
      expect((await call('DELETE', '/me/hwid', undefined, token)).status).toBe(200);
      await bindHwid(user.id, 'HWID-BBBB-0002');
      expect((await call('DELETE', '/me/hwid', undefined, token)).status).toBe(200);
    } finally {
      await updateSettings(server.ctx, {
        patch: { hwidResetCooldownHours: 24 },
        actor: { id: null, username: 'test', ip: null },
      });
    }
  });
});

describe('/me/bot-key', () => {
  it('answers the same key to concurrent first asks', async () => {
    const { token } = await server.createUser();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, token),
      ),
    );
    expect(new Set(answers.map((answer) => answer.body.data.accessKey)).size).toBe(1);
  });

  it('shows the same key until it is rotated, and stores it only sealed', async () => {
    const { user, token } = await server.createUser();
    const first = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, token);
    const again = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, token);
    expect(first.body.data.accessKey).toMatch(/^bk_[\w-]{43}$/);
    expect(again.body.data.accessKey).toBe(first.body.data.accessKey);

    const rotated = await call<{ data: { accessKey: string } }>('POST', '/me/bot-key', undefined, token);
    expect(rotated.body.data.accessKey).not.toBe(first.body.data.accessKey);
    expect(
      (await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, token)).body.data
        .accessKey,
    ).toBe(rotated.body.data.accessKey);
    const [row] = await server.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(JSON.stringify(row)).not.toContain(rotated.body.data.accessKey);
    const audited = await server.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'user.bot_key_rotated'));
    expect(audited.map((entry) => entry.targetId)).toContain(user.id);
  });
});
