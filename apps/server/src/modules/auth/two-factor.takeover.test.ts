import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from '../../../test/harness.ts';
import { authenticatorCode, enrolWith } from '../../../test/helpers/two-factor.ts';

/**
 * Issue 30: a stolen session put the thief's authenticator on the account (no password asked), and
 * ten wrong codes from an attacker who knew the password blocked the owner's right code, recovery
 * codes and `/me/two-factor/disable` for 15 minutes, renewably. Behind one trusted proxy
 * (TRUST_PROXY=1): the attacker and the owner speak from their own addresses.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
beforeAll(async () => {
  server = await startTestServer({
    env: { TRUST_PROXY: '1' },
    // A short window: the second lockout (twice as long) is seen within the test.
    rateLimits: { secondFactor: { max: 3, windowMs: 1_000 } },
  });
  call = apiClient(server);
});
afterAll(() => server.close());

const from = (address: string) => ({ 'x-forwarded-for': address });

async function signIn(username: string, address: string): Promise<string> {
  const answer = await call<{ token: string }>(
    'POST',
    '/auth/login',
    { username, password: TEST_PASSWORD },
    undefined,
    from(address),
  );
  expect(answer.status).toBe(200);
  return answer.body.token;
}

describe('turning two-factor on needs the password (issue 30)', () => {
  it('refuses a stolen session without the password, and mails the owner when it goes on and off', async () => {
    const owner = await server.createUser();
    const setup = await call<{ data: { secret: string } }>(
      'POST',
      '/me/two-factor/setup',
      undefined,
      owner.token,
    );
    const thiefCode = authenticatorCode(setup.body.data.secret);
    // The thief's request as it worked before: a code from their own app, no password.
    expect(await call('POST', '/me/two-factor/enable', { code: thiefCode }, owner.token)).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    expect(
      await call(
        'POST',
        '/me/two-factor/enable',
        { password: 'Pas-Le-Bon-Mot-1', code: thiefCode },
        owner.token,
      ),
    ).toMatchObject({ status: 400, body: { code: 'WRONG_PASSWORD' } });
    const status = await call<{ data: { enabled: boolean } }>(
      'GET',
      '/me/two-factor',
      undefined,
      owner.token,
    );
    expect(status.body.data.enabled).toBe(false);

    const { secret } = await enrolWith(call, owner.token);
    const enabledMail = await server.mail.waitFor({
      to: owner.user.email,
      subject: 'Double authentification activée',
    });
    expect(enabledMail.text).toContain(`${server.url}/forgot-password`);
    expect(
      await call(
        'POST',
        '/me/two-factor/disable',
        { password: TEST_PASSWORD, code: authenticatorCode(secret, 1) },
        owner.token,
      ),
    ).toMatchObject({ status: 200 });
    await server.mail.waitFor({ to: owner.user.email, subject: 'Double authentification désactivée' });
  });
});

describe('a stolen session cannot guess the password (issue 30)', () => {
  it('meets the sign-in failure limit on PUT /me/password', async () => {
    const owner = await server.createUser();
    const guess = (password: string) =>
      call(
        'PUT',
        '/me/password',
        { currentPassword: password, newPassword: 'Autre-Horloge-Velours-71' },
        owner.token,
        from('203.0.113.90'),
      );
    for (let i = 0; i < 10; i++) expect((await guess(`Essai-${i}-Faux`)).status).toBe(400);
    expect(await guess('Encore-Un-Essai-1')).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    // Even the right one, from there, until the window ends; the owner elsewhere is not blocked.
    expect((await guess(TEST_PASSWORD)).status).toBe(429);
    expect((await signIn(owner.user.username, '198.51.100.9')).length).toBeGreaterThan(0);
  });
});

describe('second-factor attempts count per account and address (issue 30)', () => {
  it('an attacker holding the password cannot block the owner; their waits double and the owner is told', async () => {
    const owner = await server.createUser();
    const { secret, recoveryCodes } = await enrolWith(call, owner.token);
    const attacker = await signIn(owner.user.username, '203.0.113.66');
    const wrong = () =>
      call('POST', '/auth/second-factor', { code: '000000' }, attacker, from('203.0.113.66'));

    for (let i = 0; i < 3; i++) expect((await wrong()).status).toBe(400);
    const locked = await wrong();
    expect(locked).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(locked.headers.get('retry-after')).toBe('1');
    const notice = await server.mail.waitFor({
      to: owner.user.email,
      subject: 'Codes de vérification refusés',
    });
    expect(notice.text).toContain('203.0.113.66');

    // Meanwhile the owner, elsewhere, signs in with their code and with a recovery code, and may
    // turn two-factor off.
    const owned = await signIn(owner.user.username, '198.51.100.8');
    expect(
      (
        await call(
          'POST',
          '/auth/second-factor',
          { code: authenticatorCode(secret, 1) },
          owned,
          from('198.51.100.8'),
        )
      ).status,
    ).toBe(200);
    const second = await signIn(owner.user.username, '198.51.100.8');
    expect(
      (await call('POST', '/auth/second-factor', { code: recoveryCodes[0] }, second, from('198.51.100.8')))
        .status,
    ).toBe(200);

    // The attacker's next lockout waits twice as long.
    await vi.waitFor(async () => expect((await wrong()).status).toBe(400), { timeout: 5_000, interval: 200 });
    for (let i = 0; i < 2; i++) expect((await wrong()).status).toBe(400);
    const again = await wrong();
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('2');
    // And while they wait, the owner turns two-factor off from their own address.
    const disabled = await call(
      'POST',
      '/me/two-factor/disable',
      { password: TEST_PASSWORD, code: recoveryCodes[1] },
      second,
      from('198.51.100.8'),
    );
    expect(disabled.status).toBe(200);
  });
});
