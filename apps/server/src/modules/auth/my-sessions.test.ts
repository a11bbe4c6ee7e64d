import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from '../../../test/harness.ts';

/**
 * Issue 30: a signed-in user sees their own open sessions (device, address, last use, the current
 * one marked) and ends any or all others; security mails (a sign-in from a new device, a password
 * change) reach them through the mail outbox.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
beforeAll(async () => {
  server = await startTestServer({ mail: { pollMs: 50 } });
  call = apiClient(server);
});
afterAll(() => server.close());

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

async function signIn(username: string, userAgent: string): Promise<string> {
  const answer = await call<{ token: string }>(
    'POST',
    '/auth/login',
    { username, password: TEST_PASSWORD },
    undefined,
    { 'user-agent': userAgent },
  );
  expect(answer.status).toBe(200);
  return answer.body.token;
}

interface Listed {
  id: string;
  userAgent: string | null;
  current: boolean;
  awaitingSecondFactor: boolean;
  lastSeenAt: string;
}

describe('my sessions (issue 30)', () => {
  it('lists the open sessions with the current one marked; revokes one, then every other', async () => {
    const owner = await server.createUser();
    const chrome = await signIn(owner.user.username, CHROME_WINDOWS);
    const firefox = await signIn(owner.user.username, FIREFOX_LINUX);

    const listed = await call<{ data: Listed[] }>('GET', '/me/sessions', undefined, firefox);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.body.data).toHaveLength(3);
    expect(listed.body.data.filter((session) => session.current).map((session) => session.userAgent)).toEqual(
      [FIREFOX_LINUX],
    );
    expect(listed.body.data.every((session) => !session.awaitingSecondFactor)).toBe(true);

    const chromeSession = listed.body.data.find((session) => session.userAgent === CHROME_WINDOWS);
    expect(await call('DELETE', `/me/sessions/${chromeSession?.id}`, undefined, firefox)).toMatchObject({
      status: 200,
      body: { revoked: 1 },
    });
    expect((await call('GET', '/me/info', undefined, chrome)).status).toBe(401);

    // Someone else's session is not found, and stays open.
    const stranger = await server.createUser();
    const theirs = await call<{ data: Listed[] }>('GET', '/me/sessions', undefined, stranger.token);
    const theirId = theirs.body.data[0]?.id;
    expect(await call('DELETE', `/me/sessions/${theirId}`, undefined, firefox)).toMatchObject({
      status: 404,
      body: { code: 'SESSION_NOT_FOUND' },
    });
    expect((await call('GET', '/me/info', undefined, stranger.token)).status).toBe(200);

    expect(await call('DELETE', '/me/sessions', undefined, firefox)).toMatchObject({
      status: 200,
      body: { revoked: 1 },
    });
    expect((await call('GET', '/me/info', undefined, owner.token)).status).toBe(401);
    expect((await call('GET', '/me/info', undefined, firefox)).status).toBe(200);
    const left = await call<{ data: Listed[] }>('GET', '/me/sessions', undefined, firefox);
    expect(left.body.data.map((session) => session.current)).toEqual([true]);
  });

  it('mails a sign-in from a new device (in words), not from a known one, and a password change', async () => {
    const owner = await server.createUser();
    await signIn(owner.user.username, CHROME_WINDOWS);
    const mail = await server.mail.waitFor({ to: owner.user.email, subject: 'Nouvelle connexion' });
    expect(mail.text).toContain('Chrome sur Windows');
    expect(mail.text).toContain(`${server.url}/account`);
    const before = server.mail.messages.length;
    // The same browser, updated: no new device.
    await signIn(owner.user.username, CHROME_WINDOWS.replace('131.0.0.0', '132.0.0.0'));
    const changed = await call(
      'PUT',
      '/me/password',
      { currentPassword: TEST_PASSWORD, newPassword: 'Autre-Horloge-Velours-71' },
      owner.token,
    );
    expect(changed.status).toBe(200);
    await server.mail.waitFor({
      to: owner.user.email,
      subject: 'Votre mot de passe a été changé',
      after: before,
    });
    const sinceUpdate = server.mail.messages
      .slice(before)
      .filter((message) => message.to === owner.user.email);
    expect(sinceUpdate.map((message) => message.subject)).toEqual(['Votre mot de passe a été changé']);
  });
});
