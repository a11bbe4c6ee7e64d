import { createBotClient } from '@bot/bot-agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from './harness.ts';
import { whitelist } from './helpers/realtime.ts';
import { type PostgresServer, startPostgresServer } from './postgres-server.ts';

/**
 * Operations issue, defects 1-3: a real PostgreSQL stopped and started under a serving node with a
 * connected bot. The node must answer 503 + Retry-After (never hang, never exit), keep liveness
 * green, name the database in readiness, and recover by itself when the database is back.
 */
let postgres: PostgresServer;
let server: TestServer;
const logLines: string[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  server = await startTestServer({
    openDatabaseFromConfig: true,
    env: {
      DATABASE_URL: postgres.url,
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    },
    // The silent-bot sweep reads the offline timeout from the settings (the defect's path).
    realtime: { offlineTimeoutMs: undefined },
    onLogLine: (line) => logLines.push(line),
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await postgres?.destroy();
});

describe('a PostgreSQL outage', () => {
  it('answers 503 with Retry-After, keeps serving and recovers by itself', { timeout: 120_000 }, async () => {
    const call = apiClient(server);
    const owner = await server.createUser({ permissions: ['can_useGathering'] });
    await whitelist(server, owner.user.id, ['Outage-One']);
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
    const agent = (version: string) =>
      createBotClient({
        serverUrl: server.url,
        trustRoot: server.trustRoot,
        accessKey: key.body.data.accessKey,
        hwid: 'OUTAGE-PC-1',
        version,
      });
    const bot = agent('1.0.0');
    await bot.connect();
    const login = () =>
      call('POST', '/auth/login', { username: owner.user.username, password: TEST_PASSWORD });
    expect((await login()).status).toBe(200);
    const admin = await server.createUser({ permissions: ['can_manageUsers'] });
    // Warm the session and permission caches: during the outage only the export's query fails.
    expect((await call('GET', '/admin/users/export.csv', undefined, admin.token)).status).toBe(200);

    await postgres.stop();

    // A CSV export whose query fails answers the one error shape, not Fastify's default body.
    const exported = await call('GET', '/admin/users/export.csv', undefined, admin.token);
    expect(exported.status).toBe(503);
    expect(exported.body).toEqual({ error: expect.any(String), code: 'SERVICE_UNAVAILABLE' });

    const refused = await login();
    expect(refused.status).toBe(503);
    // Retries during the outage are not failed passwords: more of them than the per-account
    // limit (10) must not lock the owner out once the database is back (seen in a 500-bot trial).
    for (let attempt = 0; attempt < 11; attempt++) expect((await login()).status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect((await call('GET', '/healthz')).status).toBe(200);
    const readiness = await call<{ checks: Record<string, string>; error: string }>('GET', '/readyz');
    expect(readiness.status).toBe(503);
    expect(readiness.body.checks).toMatchObject({ database: 'failed', dataDir: 'ok' });
    expect(readiness.body.error).toContain('base de données');
    // Background work that hits the dead database (the mail outbox's poll) is logged, not an
    // unhandled rejection (which would fail this run), and the node still answers. (The silent-bot
    // sweep of the original defect now reads its settings from the last value read.)
    await vi.waitFor(
      () => expect(logLines.some((line) => line.includes('"msg":"tâche de fond en échec"'))).toBe(true),
      { timeout: 15_000 },
    );
    expect((await call('GET', '/healthz')).status).toBe(200);

    await postgres.start();
    await vi.waitFor(async () => expect((await login()).status).toBe(200), {
      timeout: 15_000,
      interval: 250,
    });
    expect((await call('GET', '/readyz')).status).toBe(200);
    // Bots connect again: a fresh agent opens a session and authenticates.
    const second = agent('1.0.1');
    await second.connect();
    expect(second.isConnected).toBe(true);
    await second.stop();
    await bot.stop();
  });
});
