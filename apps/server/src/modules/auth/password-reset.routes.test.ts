import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, type TestServer } from '../../../test/harness.ts';
import { authSuite, queuedMails, registerAndActivate } from '../../../test/helpers/auth.ts';
import { MailReceiver } from '../../../test/mail-receiver.ts';
import { userTokens } from './user-tokens.table.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
authSuite((started) => {
  server = started;
  call = apiClient(server);
});

describe('forgot and reset password', () => {
  it('mails a reset link; the reset revokes every session and only the new password works', async () => {
    const account = await registerAndActivate(server);
    const first = await call<{ token: string }>('POST', '/auth/login', {
      username: account.username,
      password: account.password,
    });
    const before = server.mail.messages.length;
    expect(
      (await call('POST', '/auth/forgot-password', { email: account.email.toUpperCase() })).body,
    ).toEqual({ success: true });
    const mail = await server.mail.waitFor({ to: account.email, subject: 'Réinitialisation', after: before });
    const link = MailReceiver.linkOf(mail);
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/forgot-password`);
    const token = link.searchParams.get('token');

    expect(await call('POST', '/auth/reset-password', { token, password: 'azerty123' })).toMatchObject({
      body: { code: 'WEAK_PASSWORD' },
    });
    const newPassword = 'Nouvelle-Lune-Sur-Le-Lac-7';
    expect((await call('POST', '/auth/reset-password', { token, password: newPassword })).body).toEqual({
      success: true,
    });
    expect((await call('GET', '/me/info', undefined, first.body.token)).status).toBe(401);
    expect(
      (await call('POST', '/auth/login', { username: account.username, password: account.password })).status,
    ).toBe(401);
    expect(
      (await call('POST', '/auth/login', { username: account.username, password: newPassword })).status,
    ).toBe(200);
    expect(
      await call('POST', '/auth/reset-password', { token, password: 'Encore-Un-Autre-Secret-8' }),
    ).toMatchObject({
      status: 400,
      body: { code: 'INVALID_TOKEN' },
    });
  });

  it('a reset ends every other reset link of the account', async () => {
    const account = await registerAndActivate(server);
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const before = server.mail.messages.length;
      await call('POST', '/auth/forgot-password', { email: account.email });
      const mail = await server.mail.waitFor({
        to: account.email,
        subject: 'Réinitialisation',
        after: before,
      });
      tokens.push(MailReceiver.linkOf(mail).searchParams.get('token')!);
    }
    const [older, newer] = tokens;
    expect(
      (await call('POST', '/auth/reset-password', { token: newer, password: 'Nouvelle-Lune-Sur-Le-Lac-7' }))
        .status,
    ).toBe(200);
    expect(
      await call('POST', '/auth/reset-password', { token: older, password: 'Encore-Un-Autre-Secret-8' }),
    ).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
  });

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const before = await queuedMails(server);
    const answer = await call('POST', '/auth/forgot-password', { email: 'personne@example.test' });
    expect(answer).toMatchObject({ status: 200, body: { success: true } });
    expect(await queuedMails(server)).toBe(before);
  });

  it('refuses an expired reset link', async () => {
    const account = await registerAndActivate(server);
    const before = server.mail.messages.length;
    await call('POST', '/auth/forgot-password', { email: account.email });
    const token = MailReceiver.linkOf(
      await server.mail.waitFor({ to: account.email, subject: 'Réinitialisation', after: before }),
    ).searchParams.get('token');
    await server.ctx.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(userTokens.userId, account.id));
    expect(
      await call('POST', '/auth/reset-password', { token, password: 'Nouvelle-Lune-Sur-Le-Lac-7' }),
    ).toMatchObject({
      status: 400,
      body: { code: 'INVALID_TOKEN' },
    });
  });
});
