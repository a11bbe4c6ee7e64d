import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from '../../../test/harness.ts';
import { connectAndAuthenticate, type TestSocket, waitFor } from '../../../test/helpers/realtime.ts';
import { authenticatorCode, enrolWith } from '../../../test/helpers/two-factor.ts';
import { auditLog } from '../audit/index.ts';
import { updateSettings } from '../settings/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  server = await startTestServer({ rateLimits: { secondFactor: { max: 8, windowMs: 60_000 } } });
  call = apiClient(server);
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  await updateSettings(server.ctx, {
    patch: { staffTwoFactorRequired: false },
    actor: { id: null, username: 'test', ip: null },
  });
});
afterAll(() => server.close());

interface Setup {
  secret: string;
  otpauthUrl: string;
  qrCode: string;
}

const enrol = (token: string) => enrolWith(call, token);

async function signIn(username: string, password = TEST_PASSWORD) {
  const answer = await call<{ token: string; secondFactorRequired: boolean }>('POST', '/auth/login', {
    username,
    password,
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function auditActions(userId: string): Promise<string[]> {
  const rows = await server.ctx.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, userId)));
  return rows.map((row) => row.action);
}

describe('enrolment', () => {
  it('shows a QR code of an otpauth URL, proves it with a first code, answers ten recovery codes', async () => {
    const { user, token } = await server.createUser();
    expect((await call('GET', '/me/two-factor', undefined, token)).body).toEqual({
      data: { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false },
    });

    const setup = await call<{ data: Setup }>('POST', '/me/two-factor/setup', undefined, token);
    expect(setup.status).toBe(200);
    const { secret, otpauthUrl, qrCode } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('BotForge');
    expect(decodeURIComponent(url.pathname)).toContain(user.username);
    expect(Buffer.from(qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toContain(
      '<svg',
    );

    const wrong = await call(
      'POST',
      '/me/two-factor/enable',
      { password: TEST_PASSWORD, code: '000000' },
      token,
    );
    expect(wrong).toMatchObject({ status: 400, body: { code: 'TWO_FACTOR_CODE_INVALID' } });
    expect(
      (await call<{ data: { enabled: boolean } }>('GET', '/me/two-factor', undefined, token)).body.data
        .enabled,
    ).toBe(false);

    const enabled = await call<{ data: { recoveryCodes: string[] } }>(
      'POST',
      '/me/two-factor/enable',
      { password: TEST_PASSWORD, code: authenticatorCode(secret) },
      token,
    );
    expect(enabled.status).toBe(200);
    const codes = enabled.body.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const status = await call<{ data: { enabled: boolean; recoveryCodesLeft: number } }>(
      'GET',
      '/me/two-factor',
      undefined,
      token,
    );
    expect(status.body.data).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // The enrolling session has proven the second factor: it keeps working.
    expect((await call('GET', '/me/info', undefined, token)).status).toBe(200);
    expect(await auditActions(user.id)).toContain('two_factor.enabled');
    // A second enrolment is refused while one is on.
    expect((await call('POST', '/me/two-factor/setup', undefined, token)).body).toMatchObject({
      code: 'TWO_FACTOR_ALREADY_ENABLED',
    });
  });

  it('refuses to enable without a setup first', async () => {
    const { token } = await server.createUser();
    expect(
      await call('POST', '/me/two-factor/enable', { password: TEST_PASSWORD, code: '123456' }, token),
    ).toMatchObject({
      status: 409,
      body: { code: 'TWO_FACTOR_SETUP_MISSING' },
    });
  });

  it("asks the account's other sessions for a code once it is on", async () => {
    const { user, token } = await server.createUser();
    const other = await signIn(user.username);
    expect(other.secondFactorRequired).toBe(false);
    expect((await call('GET', '/me/info', undefined, other.token)).status).toBe(200);
    await enrol(token);
    expect(await call('GET', '/me/info', undefined, other.token)).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('signing in with two-factor on', () => {
  it('gives a token good for nothing but the code, then a full session', async () => {
    const { user, token } = await server.createUser();
    const { secret } = await enrol(token);

    const pending = await signIn(user.username);
    expect(pending.secondFactorRequired).toBe(true);
    expect((await call('GET', '/me/info', undefined, pending.token)).status).toBe(401);
    const socket = await connectAndAuthenticate(server, {
      type: 'client',
      token: pending.token,
      hwid: 'X'.repeat(8),
    });
    sockets.push(socket.socket);
    expect(socket.ack).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });

    const wrong = await call('POST', '/auth/second-factor', { code: '000000' }, pending.token);
    expect(wrong).toMatchObject({ status: 400, body: { code: 'TWO_FACTOR_CODE_INVALID' } });
    expect(await auditActions(user.id)).toContain('auth.second_factor_failed');

    const code = authenticatorCode(secret, 1);
    expect((await call('POST', '/auth/second-factor', { code }, pending.token)).body).toEqual({
      success: true,
    });
    expect((await call('GET', '/me/info', undefined, pending.token)).status).toBe(200);

    // The same code is good once (RFC 6238 section 5.2), even for another sign-in.
    const replay = await signIn(user.username);
    expect(await call('POST', '/auth/second-factor', { code }, replay.token)).toMatchObject({
      status: 400,
      body: { code: 'TWO_FACTOR_CODE_INVALID' },
    });
  });

  it('takes each recovery code once, in any case and with or without its dash', async () => {
    const { user, token } = await server.createUser();
    const { recoveryCodes } = await enrol(token);
    const [first, second] = recoveryCodes as [string, string];

    const pending = await signIn(user.username);
    const typed = first.toUpperCase().replace('-', ' ');
    expect((await call('POST', '/auth/second-factor', { code: typed }, pending.token)).status).toBe(200);
    expect(await auditActions(user.id)).toContain('auth.login_recovery_code');

    const again = await signIn(user.username);
    expect((await call('POST', '/auth/second-factor', { code: first }, again.token)).status).toBe(400);
    expect((await call('POST', '/auth/second-factor', { code: second }, again.token)).status).toBe(200);
    const status = await call<{ data: { recoveryCodesLeft: number } }>(
      'GET',
      '/me/two-factor',
      undefined,
      token,
    );
    expect(status.body.data.recoveryCodesLeft).toBe(8);
  });

  it('counts code attempts per account and address and then refuses with 429', async () => {
    const { user, token } = await server.createUser();
    await enrol(token); // one attempt
    const pending = await signIn(user.username);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      statuses.push((await call('POST', '/auth/second-factor', { code: '000000' }, pending.token)).status);
    }
    expect(statuses.slice(0, 7).every((status) => status === 400)).toBe(true);
    expect(statuses[7]).toBe(429);
  });

  it('lets staff finish a two-step sign-in during maintenance (customers stay out)', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const { secret } = await enrol(admin.token);
    await updateSettings(server.ctx, {
      patch: { maintenanceMode: true },
      actor: { id: null, username: 'test', ip: null },
    });
    try {
      const pending = await signIn(admin.user.username);
      const passed = await call(
        'POST',
        '/auth/second-factor',
        { code: authenticatorCode(secret, 1) },
        pending.token,
      );
      expect(passed.status).toBe(200);
      expect((await call('GET', '/admin/users', undefined, pending.token)).status).toBe(200);
      const customer = await server.createUser();
      expect((await call('GET', '/me/orders', undefined, customer.token)).status).toBe(503);
    } finally {
      await updateSettings(server.ctx, {
        patch: { maintenanceMode: false },
        actor: { id: null, username: 'test', ip: null },
      });
    }
  });

  it('lets a sign-in left at the code be closed', async () => {
    const { user, token } = await server.createUser();
    await enrol(token);
    const pending = await signIn(user.username);
    expect((await call('POST', '/auth/logout', undefined, pending.token)).status).toBe(200);
    expect((await call('POST', '/auth/second-factor', { code: '123456' }, pending.token)).status).toBe(401);
  });
});

describe('turning it off and renewing recovery codes', () => {
  it('asks for the password and a code, then signs the other sessions out', async () => {
    const { user, token } = await server.createUser();
    const { secret, recoveryCodes } = await enrol(token);
    const other = await signIn(user.username);
    await call('POST', '/auth/second-factor', { code: recoveryCodes[0] }, other.token);

    const wrongPassword = await call(
      'POST',
      '/me/two-factor/disable',
      { password: 'Pas-Le-Bon-Mot', code: authenticatorCode(secret, 1) },
      token,
    );
    expect(wrongPassword).toMatchObject({ status: 400, body: { code: 'WRONG_PASSWORD' } });
    const wrongCode = await call(
      'POST',
      '/me/two-factor/disable',
      { password: TEST_PASSWORD, code: '000000' },
      token,
    );
    expect(wrongCode).toMatchObject({ status: 400, body: { code: 'TWO_FACTOR_CODE_INVALID' } });

    const disabled = await call(
      'POST',
      '/me/two-factor/disable',
      { password: TEST_PASSWORD, code: authenticatorCode(secret, 1) },
      token,
    );
    expect(disabled.body).toEqual({ success: true });
    expect((await call('GET', '/me/info', undefined, token)).status).toBe(200);
    expect((await call('GET', '/me/info', undefined, other.token)).status).toBe(401);
    expect(await auditActions(user.id)).toContain('two_factor.disabled');
    expect((await signIn(user.username)).secondFactorRequired).toBe(false);
  });

  it('renews the recovery codes: the old ones stop working', async () => {
    const { user, token } = await server.createUser();
    const { secret, recoveryCodes } = await enrol(token);
    const renewed = await call<{ data: { recoveryCodes: string[] } }>(
      'POST',
      '/me/two-factor/recovery-codes',
      { password: TEST_PASSWORD, code: authenticatorCode(secret, 1) },
      token,
    );
    expect(renewed.status).toBe(200);
    expect(renewed.body.data.recoveryCodes).toHaveLength(10);
    expect(renewed.body.data.recoveryCodes).not.toContain(recoveryCodes[1]);
    expect(await auditActions(user.id)).toContain('two_factor.recovery_codes_renewed');

    const pending = await signIn(user.username);
    expect(
      (await call('POST', '/auth/second-factor', { code: recoveryCodes[1] }, pending.token)).status,
    ).toBe(400);
    const fresh = renewed.body.data.recoveryCodes[0];
    expect((await call('POST', '/auth/second-factor', { code: fresh }, pending.token)).status).toBe(200);
  });
});

describe('mandatory for staff', () => {
  it('sends staff without it to enrolment: admin endpoints and the admin socket refuse them', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const { secret } = await enrol(admin.token);
    const staff = await server.createUser({ permissions: ['can_manageUsers', 'can_manageMap'] });
    const customer = await server.createUser({ permissions: ['can_useGathering'] });

    // Staff already watching the fleet when the rule is switched on lose the feed.
    const watching = await connectAndAuthenticate(server, { type: 'admin', token: staff.token });
    sockets.push(watching.socket);
    expect(watching.ack).toEqual({ ok: true });
    const refusedLater = waitFor<{ code: string }>(watching.socket, 'auth_error');

    const turnedOn = await call('PUT', '/admin/settings', { staffTwoFactorRequired: true }, admin.token);
    expect(turnedOn.status).toBe(200);
    expect(await refusedLater).toMatchObject({ code: 'TWO_FACTOR_ENROLLMENT_REQUIRED' });

    expect(await call('GET', '/admin/users', undefined, staff.token)).toMatchObject({
      status: 403,
      body: { code: 'TWO_FACTOR_ENROLLMENT_REQUIRED' },
    });
    const refused = await connectAndAuthenticate(server, { type: 'admin', token: staff.token });
    sockets.push(refused.socket);
    expect(refused.ack).toMatchObject({ ok: false, code: 'TWO_FACTOR_ENROLLMENT_REQUIRED' });
    // Their own account still works, so they can enrol; customers are not asked.
    expect((await call('GET', '/me/info', undefined, staff.token)).status).toBe(200);
    expect(
      (await call<{ data: { required: boolean } }>('GET', '/me/two-factor', undefined, staff.token)).body.data
        .required,
    ).toBe(true);
    expect(
      (await call<{ data: { required: boolean } }>('GET', '/me/two-factor', undefined, customer.token)).body
        .data.required,
    ).toBe(false);
    // The enrolled administrator keeps the admin area.
    expect((await call('GET', '/admin/users', undefined, admin.token)).status).toBe(200);

    await enrol(staff.token);
    expect((await call('GET', '/admin/users', undefined, staff.token)).status).toBe(200);
    const accepted = await connectAndAuthenticate(server, { type: 'admin', token: staff.token });
    sockets.push(accepted.socket);
    expect(accepted.ack).toEqual({ ok: true });
    expect(secret).toBeTruthy();
  });

  it('refuses to switch the rule on for an administrator who has not enrolled (no lock-out)', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    expect(await call('PUT', '/admin/settings', { staffTwoFactorRequired: true }, admin.token)).toMatchObject(
      {
        status: 409,
        body: { code: 'TWO_FACTOR_REQUIRED_FIRST' },
      },
    );
  });
});

describe('staff reset', () => {
  it('removes a lost authenticator, signs the owner out, is audited', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const owner = await server.createUser();
    await enrol(owner.token);

    const reset = await call<{ data: { twoFactorEnabled: boolean } }>(
      'DELETE',
      `/admin/users/${owner.user.id}/two-factor`,
      undefined,
      admin.token,
    );
    expect(reset.status).toBe(200);
    expect(reset.body.data.twoFactorEnabled).toBe(false);
    expect((await call('GET', '/me/info', undefined, owner.token)).status).toBe(401);
    expect((await signIn(owner.user.username)).secondFactorRequired).toBe(false);
    expect(await auditActions(owner.user.id)).toContain('two_factor.reset');
    await server.mail.waitFor({ to: owner.user.email, subject: 'Double authentification réinitialisée' });
    expect(
      await call('DELETE', `/admin/users/${owner.user.id}/two-factor`, undefined, admin.token),
    ).toMatchObject({ status: 409, body: { code: 'TWO_FACTOR_NOT_ENABLED' } });
  });

  it('is refused without can_manageUsers', async () => {
    const other = await server.createUser({ permissions: ['can_manageMap'] });
    const owner = await server.createUser();
    expect(
      (await call('DELETE', `/admin/users/${owner.user.id}/two-factor`, undefined, other.token)).status,
    ).toBe(403);
  });
});
