import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type LocalCluster, startLocalCluster } from '../../../../deploy/local-cluster.ts';
import { freePort, startTestServer, type TestServer } from '../harness.ts';

/**
 * The application's 503s (maintenance, a database outage) through the repository's nginx template:
 * they must reach the client as the node wrote them, JSON and Retry-After, and never get every node
 * marked down (docs/decisions/800-scale-out.md, "Two upstreams").
 */
const ADMIN_PASSWORD = 'Grappe-Maintenance-Essai-2026';
/** Enough requests to cover nginx's fail_timeout (5 s) several times over at the template's settings. */
const REQUESTS = 15;
const postgresScript = fileURLToPath(new URL('../../../../scripts/test-postgres.sh', import.meta.url));

let workDir: string;
let postgresPort: number;
let cluster: LocalCluster;
/** An in-process node on the same PostgreSQL and Redis, outside nginx: seeds the customer. */
let control: TestServer;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'bot-nginx-503-'));
  const [nginx, postgres, redis, ...nodes] = await Promise.all(Array.from({ length: 5 }, () => freePort()));
  postgresPort = postgres!;
  cluster = await startLocalCluster({
    workDir,
    ports: { nginx: nginx!, postgres: postgres!, redis: redis!, nodes },
    env: { LOG_LEVEL: 'warn', ADMIN_PASSWORD },
  });
  control = await startTestServer({
    env: { DATABASE_URL: cluster.databaseUrl, REDIS_URL: cluster.redisUrl ?? '', ...cluster.masterKeyEnv },
    openDatabaseFromConfig: true,
  });
});
afterAll(async () => {
  await control?.close();
  await cluster?.stop();
  await rm(workDir, { recursive: true, force: true });
});

function postgres(action: 'start' | 'stop'): void {
  execFileSync('bash', [postgresScript, action], {
    env: { ...process.env, PGPORT: String(postgresPort), PGDIR: path.join(workDir, 'postgres') },
    stdio: 'ignore',
  });
}

async function viaNginx(method: string, url: string, token?: string, body?: unknown) {
  const answer = await fetch(`${cluster.url}/api${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), text };
}

/** Every one of `REQUESTS` calls answers the application's JSON 503 with `code`, never nginx's page. */
async function expectEveryAnswerIs503(code: string, token: string): Promise<void> {
  const answers = [];
  for (let i = 0; i < REQUESTS; i += 1) answers.push(await viaNginx('GET', '/me/orders', token));
  for (const answer of answers) {
    expect(answer.status, answer.text).toBe(503);
    expect(JSON.parse(answer.text)).toMatchObject({ code });
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  }
}

it('maintenance answers the JSON 503 through nginx on every request, and staff switch it off through nginx', async () => {
  const customer = await control.createUser({ permissions: ['can_useGathering'] });
  const signIn = await viaNginx('POST', '/auth/login', undefined, {
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  expect(signIn.status, signIn.text).toBe(200);
  const adminToken = (JSON.parse(signIn.text) as { token: string }).token;

  const on = await viaNginx('PUT', '/admin/settings', adminToken, { maintenanceMode: true });
  expect(on.status, on.text).toBe(200);
  // Every node reads the setting from the database (its cache is dropped by the relayed event).
  await vi.waitFor(
    async () => expect((await viaNginx('GET', '/me/orders', customer.token)).status).toBe(503),
    {
      timeout: 10_000,
      interval: 100,
    },
  );
  await expectEveryAnswerIs503('MAINTENANCE', customer.token);

  // The administrator is not locked out by the platform's own maintenance page.
  const adminRead = await viaNginx('GET', '/admin/settings', adminToken);
  expect(adminRead.status, adminRead.text).toBe(200);
  const off = await viaNginx('PUT', '/admin/settings', adminToken, { maintenanceMode: false });
  expect(off.status, off.text).toBe(200);
  await vi.waitFor(
    async () => expect((await viaNginx('GET', '/me/orders', customer.token)).status).toBe(200),
    {
      timeout: 10_000,
      interval: 100,
    },
  );
});

it('a database outage answers the JSON 503 with Retry-After through nginx, and the platform comes back with the database', async () => {
  const customer = await control.createUser({ permissions: ['can_useGathering'] });
  postgres('stop');
  try {
    await vi.waitFor(
      async () =>
        expect(JSON.parse((await viaNginx('GET', '/me/orders', customer.token)).text)).toMatchObject({
          code: 'SERVICE_UNAVAILABLE',
        }),
      { timeout: 20_000, interval: 200 },
    );
    await expectEveryAnswerIs503('SERVICE_UNAVAILABLE', customer.token);
  } finally {
    postgres('start');
  }
  await vi.waitFor(
    async () => expect((await viaNginx('GET', '/me/orders', customer.token)).status).toBe(200),
    {
      timeout: 20_000,
      interval: 200,
    },
  );
});

it('the address a node sees is the one nginx saw, whatever X-Forwarded-For the client sends', async () => {
  const customer = await control.createUser({ permissions: ['can_useGathering'] });
  const signIn = await fetch(`${cluster.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
    body: JSON.stringify({ username: customer.user.username, password: customer.password }),
  });
  expect(signIn.status).toBe(200);
  const { token } = (await signIn.json()) as { token: string };
  const sessions = JSON.parse((await viaNginx('GET', '/me/sessions', token)).text) as {
    data: { ip: string | null }[];
  };
  // nginx appends the peer it saw and the node (TRUST_PROXY=1) believes that last hop only: a forged
  // leftmost address would otherwise escape every per-address limit.
  expect(sessions.data.map((session) => session.ip)).toContain('127.0.0.1');
  expect(sessions.data.map((session) => session.ip)).not.toContain('203.0.113.7');
});
