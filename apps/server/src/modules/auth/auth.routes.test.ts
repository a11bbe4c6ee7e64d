import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, type TestServer } from '../../../test/harness.ts';
import { authSuite, freshAccount, queuedMails, registerAndActivate } from '../../../test/helpers/auth.ts';
import { MailReceiver } from '../../../test/mail-receiver.ts';
import { auditLog } from '../audit/index.ts';
import { updateSettings } from '../settings/index.ts';
import { users } from '../users/index.ts';
import { userTokens } from './user-tokens.table.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
authSuite((started) => {
  server = started;
  call = apiClient(server);
});

describe('POST /auth/register', () => {
  it('creates an unactivated user, answers the public user object and mails an activation link', async () => {
    const input = freshAccount();
    const { status, body } = await call<{ user: Record<string, unknown> }>('POST', '/auth/register', input);
    expect(status).toBe(201);
    expect(Object.keys(body.user).sort()).toEqual(
      [
        'Policy',
        'activated',
        'createdAt',
        'discordId',
        'email',
        'hwid',
        'id',
        'referral',
        'roles',
        'username',
      ].sort(),
    );
    expect(body.user).toMatchObject({
      username: input.username,
      email: input.email,
      activated: false,
      Policy: { IsAdministrator: false },
    });
    expect(JSON.stringify(body)).not.toMatch(/argon2|passwordHash|token/i);

    const mail = await server.mail.waitFor({ to: input.email });
    expect(mail.subject).toBe('Activez votre compte');
    expect(mail.html).toContain('Activer mon compte');
    const link = MailReceiver.linkOf(mail);
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/login`);
    expect(link.searchParams.get('username')).toBe(input.username);
    expect(link.searchParams.get('token')).toMatch(/^[\w-]{43}$/);
    // Only the hash of the token is stored.
    const stored = await server.ctx.db
      .select()
      .from(userTokens)
      .where(eq(userTokens.userId, body.user.id as string));
    expect(stored[0]?.tokenHash).not.toBe(link.searchParams.get('token'));
  });

  it('refuses a taken username or e-mail, whatever their case', async () => {
    const input = freshAccount();
    expect((await call('POST', '/auth/register', input)).status).toBe(201);
    const sameName = await call('POST', '/auth/register', {
      ...freshAccount(),
      username: input.username.toUpperCase(),
    });
    expect(sameName).toMatchObject({
      status: 409,
      body: { code: 'USERNAME_TAKEN', error: "Ce nom d'utilisateur est déjà pris." },
    });
  });

  it('answers a registration with a taken e-mail exactly like a fresh one, and tells the owner by mail', async () => {
    const input = freshAccount();
    expect((await call('POST', '/auth/register', input)).status).toBe(201);
    const stranger = { ...freshAccount(), email: input.email.toUpperCase() };
    const taken = await call<{ user: Record<string, unknown> }>('POST', '/auth/register', stranger);
    const other = freshAccount();
    const fresh201 = await call<{ user: Record<string, unknown> }>('POST', '/auth/register', other);
    expect(taken.status).toBe(fresh201.status);
    expect(Object.keys(taken.body.user).sort()).toEqual(Object.keys(fresh201.body.user).sort());
    expect(taken.body.user).toMatchObject({
      username: stranger.username,
      email: stranger.email,
      activated: false,
    });
    const warning = await server.mail.waitFor({ to: input.email, subject: 'Tentative d’inscription' });
    expect(warning.text).toContain(stranger.username);
    // No second account: the stranger's name is still free and nobody can sign in with it.
    const [created] = await server.ctx.db.select().from(users).where(eq(users.username, stranger.username));
    expect(created).toBeUndefined();
  });

  it('refuses common and easily guessed passwords, with no composition rule', async () => {
    for (const password of ['password123', 'azertyuiop', 'motdepasse', '12345678']) {
      const answer = await call('POST', '/auth/register', { ...freshAccount(), password });
      expect(answer, password).toMatchObject({ status: 400, body: { code: 'WEAK_PASSWORD' } });
    }
    const input = freshAccount();
    const fromName = await call('POST', '/auth/register', {
      ...input,
      password: `${input.username}${input.username}`,
    });
    expect(fromName.body).toMatchObject({ code: 'WEAK_PASSWORD' });
    // A long lowercase passphrase passes: length, not symbols.
    expect(
      (
        await call('POST', '/auth/register', {
          ...freshAccount(),
          password: 'tortue violette mange des nuages',
        })
      ).status,
    ).toBe(201);
  });

  it('keeps passwords up to 128 characters untruncated and refuses longer ones', async () => {
    const long = `${'k7!Zq'.repeat(25)}abc`; // 128 characters
    const input = { ...freshAccount(), password: long };
    const { id } = await registerAndActivate(server, input);
    expect(id).toBeTruthy();
    expect((await call('POST', '/auth/login', { username: input.username, password: long })).status).toBe(
      200,
    );
    expect(
      (await call('POST', '/auth/login', { username: input.username, password: long.slice(0, 127) })).status,
    ).toBe(401);
    const tooLong = await call('POST', '/auth/register', { ...freshAccount(), password: `${long}x` });
    expect(tooLong).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('records the referrer when the referral names an existing user, and refuses an unknown one', async () => {
    const referrer = await server.createUser({ username: 'parrain' });
    const withReferral = await call<{ user: { referral: string | null; id: string } }>(
      'POST',
      '/auth/register',
      { ...freshAccount(), referral: 'PARRAIN' },
    );
    expect(withReferral.body.user.referral).toBe('parrain');
    const [row] = await server.ctx.db.select().from(users).where(eq(users.id, withReferral.body.user.id));
    expect(row?.referredById).toBe(referrer.user.id);
    const unknown = await call('POST', '/auth/register', { ...freshAccount(), referral: 'personne' });
    expect(unknown).toMatchObject({
      status: 400,
      body: { code: 'REFERRAL_UNKNOWN', details: { field: 'referral' } },
    });
    const taken = await call('POST', '/auth/register', { ...freshAccount(), username: 'parrain' });
    expect(taken).toMatchObject({
      status: 409,
      body: { code: 'USERNAME_TAKEN', details: { field: 'username' } },
    });
  });

  it('is refused while registration is closed', async () => {
    await updateSettings(server.ctx, {
      patch: { registrationOpen: false },
      actor: { id: null, username: 'test', ip: null },
    });
    try {
      expect(await call('POST', '/auth/register', freshAccount())).toMatchObject({
        status: 403,
        body: { code: 'REGISTRATION_CLOSED' },
      });
    } finally {
      await updateSettings(server.ctx, {
        patch: { registrationOpen: true },
        actor: { id: null, username: 'test', ip: null },
      });
    }
  });
});

describe('POST /auth/activate', () => {
  it('activates once; the used token cannot be used again', async () => {
    const input = freshAccount();
    await call('POST', '/auth/register', input);
    const link = MailReceiver.linkOf(await server.mail.waitFor({ to: input.email }));
    const payload = { username: input.username, token: link.searchParams.get('token') };
    expect((await call('POST', '/auth/activate', payload)).body).toEqual({ success: true });
    const again = await call('POST', '/auth/activate', payload);
    expect(again).toMatchObject({ status: 400, body: { code: 'ACTIVATION_REFUSED' } });
    // Every failure is one answer: used token, unknown user, wrong token.
    const unknown = await call('POST', '/auth/activate', { username: 'personne_ici', token: payload.token });
    const wrong = await call('POST', '/auth/activate', { username: input.username, token: 'pas-le-bon' });
    expect(unknown.body).toEqual(again.body);
    expect(wrong.body).toEqual(again.body);
    expect([unknown.status, wrong.status]).toEqual([400, 400]);
  });

  it('refuses a wrong token, the token of another user and an expired token', async () => {
    const a = freshAccount();
    const b = freshAccount();
    await call('POST', '/auth/register', a);
    await call('POST', '/auth/register', b);
    const tokenOfA = MailReceiver.linkOf(await server.mail.waitFor({ to: a.email })).searchParams.get(
      'token',
    );
    expect(
      await call('POST', '/auth/activate', { username: a.username, token: 'not-the-token' }),
    ).toMatchObject({
      status: 400,
      body: { code: 'ACTIVATION_REFUSED' },
    });
    expect(await call('POST', '/auth/activate', { username: b.username, token: tokenOfA })).toMatchObject({
      status: 400,
    });

    const tokenOfB = MailReceiver.linkOf(await server.mail.waitFor({ to: b.email })).searchParams.get(
      'token',
    );
    const [userB] = await server.ctx.db.select().from(users).where(eq(users.username, b.username));
    await server.ctx.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.userId, userB!.id));
    expect(await call('POST', '/auth/activate', { username: b.username, token: tokenOfB })).toMatchObject({
      status: 400,
      body: { code: 'ACTIVATION_REFUSED' },
    });
  });
});

describe('POST /auth/resend-confirmation', () => {
  it('sends a new working link to an unactivated user', async () => {
    const input = freshAccount();
    await call('POST', '/auth/register', input);
    await server.mail.waitFor({ to: input.email });
    const before = server.mail.messages.length;
    expect((await call('POST', '/auth/resend-confirmation', { username: input.username })).body).toEqual({
      success: true,
    });
    const again = await server.mail.waitFor({ to: input.email, after: before });
    const link = MailReceiver.linkOf(again);
    expect(
      (
        await call('POST', '/auth/activate', {
          username: input.username,
          token: link.searchParams.get('token'),
        })
      ).status,
    ).toBe(200);
  });

  it('answers the same for an unknown user and sends nothing', async () => {
    const before = await queuedMails(server);
    const answer = await call('POST', '/auth/resend-confirmation', { username: 'fantome' });
    expect(answer).toMatchObject({ status: 200, body: { success: true } });
    // Requests only queue mails: nothing queued by the time it answered means nothing will be sent.
    expect(await queuedMails(server)).toBe(before);
  });
});

describe('POST /auth/login', () => {
  it('signs in with the username or the e-mail and answers user and token', async () => {
    const account = await registerAndActivate(server);
    const byName = await call<{ user: { username: string; activated: boolean }; token: string }>(
      'POST',
      '/auth/login',
      {
        username: account.username,
        password: account.password,
      },
    );
    expect(byName.status).toBe(200);
    expect(byName.body.user).toMatchObject({ username: account.username, activated: true });
    expect(byName.body.token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
    const info = await call('GET', '/me/info', undefined, byName.body.token);
    expect(info.body).toMatchObject({ data: { id: account.id } });
    const byEmail = await call('POST', '/auth/login', {
      username: account.email,
      password: account.password,
    });
    expect(byEmail.status).toBe(200);
  });

  it('refuses an unactivated account until activation', async () => {
    const input = freshAccount();
    await call('POST', '/auth/register', input);
    const answer = await call('POST', '/auth/login', { username: input.username, password: input.password });
    expect(answer).toMatchObject({ status: 403, body: { code: 'ACCOUNT_NOT_ACTIVATED' } });
  });

  it('answers an unknown user exactly like a wrong password, and audits the failure', async () => {
    const account = await registerAndActivate(server);
    const wrong = await call('POST', '/auth/login', {
      username: account.username,
      password: 'Pas-Le-Bon-Mot-De-Passe',
    });
    const unknown = await call('POST', '/auth/login', {
      username: 'inconnu',
      password: 'Pas-Le-Bon-Mot-De-Passe',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toEqual({
      error: "Nom d'utilisateur ou mot de passe incorrect.",
      code: 'INVALID_CREDENTIALS',
    });
    const failures = await server.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.login_failed'));
    expect(failures.some((entry) => entry.targetId === account.id)).toBe(true);
  });

  it('throttles failures per account and address: a stranger cannot lock the owner out', async () => {
    const account = await registerAndActivate(server);
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const attempt = (password: string, address: string) =>
      call('POST', '/auth/login', { username: account.username, password }, undefined, from(address));
    for (let i = 0; i < 3; i++)
      expect((await attempt('Faux-Mot-De-Passe-1', '198.51.100.7')).status).toBe(401);
    const blocked = await attempt('Faux-Mot-De-Passe-1', '198.51.100.7');
    expect(blocked).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // A forged leftmost address does not reset the attacker's count: the proxy's entry is the last.
    expect((await attempt('Faux-Mot-De-Passe-1', '10.9.8.7, 198.51.100.7')).status).toBe(429);
    // The owner, from their own address, still signs in.
    expect((await attempt(account.password, '203.0.113.9')).status).toBe(200);
  });

  it('refuses a banned account', async () => {
    const account = await registerAndActivate(server);
    await server.ctx.db
      .update(users)
      .set({ bannedAt: new Date(), banReason: 'triche' })
      .where(eq(users.id, account.id));
    const answer = await call('POST', '/auth/login', {
      username: account.username,
      password: account.password,
    });
    expect(answer).toMatchObject({
      status: 403,
      body: {
        code: 'ACCOUNT_BANNED',
        error: 'Votre compte est suspendu : triche',
        details: { reason: 'triche' },
      },
    });
  });
});
