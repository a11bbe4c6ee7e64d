import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/core/ids.ts';
import { grantPermission } from '../src/modules/access/index.ts';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from './harness.ts';
import { connectAndAuthenticate, newHwid, whitelist } from './helpers/realtime.ts';
import { MailReceiver } from './mail-receiver.ts';

/**
 * Logs are structured JSON with a request id and never carry a secret: a whole customer flow runs
 * with logging at trace level, then every line is searched for every secret the flow used.
 */
const lines: string[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'trace' }, onLogLine: (line) => lines.push(line) });
});
afterAll(async () => server?.close());

describe('logs', () => {
  it('contain no password, session token, activation or reset token, access key or bot token', async () => {
    const call = apiClient(server);
    const secrets: string[] = [TEST_PASSWORD];
    const username = `journal${Date.now().toString(36)}`;
    const email = `${username}@example.test`;
    expect((await call('POST', '/auth/register', { username, email, password: TEST_PASSWORD })).status).toBe(
      201,
    );
    const activation = MailReceiver.linkOf(await server.mail.waitFor({ to: email, subject: 'Activez' }));
    secrets.push(activation.searchParams.get('token')!);
    // The link is opened in a browser first: the token reaches the server in the query string.
    await fetch(`${server.url}${activation.pathname}${activation.search}`);
    expect(
      (await call('POST', '/auth/activate', { username, token: activation.searchParams.get('token') }))
        .status,
    ).toBe(200);

    const login = await call<{ token: string; user: { id: string } }>('POST', '/auth/login', {
      username,
      password: TEST_PASSWORD,
    });
    const { token } = login.body;
    secrets.push(token);
    await call('GET', '/me/info', undefined, token);
    await call('POST', '/auth/login', { username, password: 'Mauvais-Mot-De-Passe-42' });
    secrets.push('Mauvais-Mot-De-Passe-42');

    const { user } = login.body;
    await grantPermission(server.ctx, {
      id: newId(),
      userId: user.id,
      permission: 'can_useGathering',
      expiresAt: null,
      source: 'manual',
    });
    await whitelist(server, user.id, ['Journal']);
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, token);
    const { accessKey } = key.body.data;
    secrets.push(accessKey);
    const hwid = newHwid();
    const session = await call<{ token: string }>('POST', '/bot/sessions', {
      accessKey,
      hwid,
      version: '1.0.0',
    });
    expect(session.status).toBe(201);
    secrets.push(session.body.token);
    const bot = await connectAndAuthenticate(server, { type: 'bot', token: session.body.token, hwid });
    const watcher = await connectAndAuthenticate(server, { type: 'client', token, hwid });
    expect([bot.ack, watcher.ack]).toEqual([{ ok: true }, { ok: true }]);
    bot.socket.disconnect();
    watcher.socket.disconnect();

    await call('POST', '/auth/forgot-password', { email });
    const reset = MailReceiver.linkOf(await server.mail.waitFor({ to: email, subject: 'passe' }));
    const resetToken = reset.searchParams.get('token')!;
    secrets.push(resetToken);
    await fetch(`${server.url}${reset.pathname}${reset.search}`);
    const newPassword = 'Nouveau-Cactus-Horloge-77';
    secrets.push(newPassword);
    expect(
      (await call('POST', '/auth/reset-password', { token: resetToken, password: newPassword })).status,
    ).toBe(200);

    const requests = lines.filter((line) => line.includes('"msg":"requête terminée"'));
    expect(requests.some((line) => line.includes('token=[Redacted]'))).toBe(true);
    expect(requests.length).toBeGreaterThan(8);
    for (const line of requests)
      expect(JSON.parse(line)).toMatchObject({
        reqId: expect.any(String),
        method: expect.any(String),
        url: expect.stringMatching(/^\//),
        statusCode: expect.any(Number),
      });
    // A request's arrival is only logged at debug level (this test reads every level).
    const arrivals = lines.filter((line) => line.includes('"msg":"requête reçue"'));
    expect(arrivals.length).toBeGreaterThanOrEqual(requests.length);
    for (const line of arrivals)
      expect(JSON.parse(line)).toMatchObject({ level: 20, reqId: expect.any(String) });
    // The answered line names the same request as its arrival.
    const arrivedIds = new Set(arrivals.map((line) => JSON.parse(line).reqId));
    for (const line of requests) expect(arrivedIds).toContain(JSON.parse(line).reqId);
    const leaks = secrets.flatMap((secret) =>
      lines.filter((line) => line.includes(secret)).map((line) => ({ secret, line })),
    );
    expect(leaks).toEqual([]);
  });
});
