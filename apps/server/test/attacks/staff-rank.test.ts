import { PERMISSIONS, type Permission } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordBotLogLines } from '../../src/modules/bot-log/index.ts';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../harness.ts';
import { connectAndAuthenticate, newHwid, type TestSocket, whitelist } from '../helpers/realtime.ts';

/**
 * Attack family 5: lower-rank staff. For each single staff permission, every GET of the API (from
 * its own OpenAPI document) is called with the path filled in with an outranking account's id and
 * hwid, and the lists searched by its e-mail: no answer may carry that account's personal data
 * (e-mail, the browser of its sessions, its PC's hwid, its game account, its journal). A live
 * journal or bot watch of its PC is refused too.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let paths: string[] = [];
const sockets: TestSocket[] = [];
const STAFF = PERMISSIONS.filter((permission) => permission.startsWith('can_manage')) as Permission[];

interface Target {
  who: string;
  user: TestUser;
  hwid: string;
  secrets: string[];
}
const targets: Target[] = [];

async function target(who: string, input: { isAdministrator?: boolean; permissions?: Permission[] }) {
  const tag = newHwid().slice(-10).toLowerCase();
  const email = `boss-${tag}@example.test`;
  const user = await server.createUser({
    email,
    ...input,
    permissions: [...(input.permissions ?? []), 'can_useGathering'],
  });
  // A session with a browser of its own (what the sessions list would show).
  const agentString = `BossBrowser/${tag}`;
  const login = await call(
    'POST',
    '/auth/login',
    { username: user.user.username, password: user.password },
    undefined,
    {
      'user-agent': agentString,
    },
  );
  expect(login.status).toBe(200);
  const accountName = `bossacc-${tag}`;
  await whitelist(server, user.user.id, [accountName]);
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, user.token);
  const hwid = newHwid();
  const session = await call('POST', '/bot/sessions', {
    accessKey: key.body.data.accessKey,
    hwid,
    version: '1.0.0',
  });
  expect(session.status).toBe(201);
  const logLine = `bosslog-${tag}`;
  await recordBotLogLines(server.ctx, {
    userId: user.user.id,
    hwid,
    lines: [{ level: 'info', time: new Date(), message: logLine, origin: 'agent' }],
  });
  targets.push({
    who,
    user,
    hwid,
    secrets: [email, agentString, hwid, accountName, logLine, key.body.data.accessKey],
  });
}

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  const document = (await server.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  paths = Object.entries(document.paths)
    .filter(([route, methods]) => 'get' in methods && route.startsWith('/api/admin'))
    .map(([route]) => route.replace(/^\/api/, ''));
  await target('an administrator', { isAdministrator: true });
  await target('a staff member holding every staff permission', { permissions: STAFF });
}, 120_000);
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

function fill(route: string, t: Target): string {
  return route
    .replace(/\{(id|userId)\}|:(id|userId)\b/g, t.user.user.id)
    .replace(/\{hwid\}|:hwid\b/g, t.hwid)
    .replace(/\{[a-zA-Z]+\}|:[a-zA-Z]+\b/g, 'x');
}

describe('lower-rank staff reading an outranking account', () => {
  for (const permission of STAFF) {
    it(`a ${permission}-only staff member reads none of its personal data, in any GET or search`, {
      timeout: 120_000,
    }, async () => {
      const reader = await server.createUser({ permissions: [permission] });
      const leaks: string[] = [];
      for (const t of targets) {
        const email = t.secrets[0] as string;
        const routes = paths.flatMap((route) => {
          const filled = fill(route, t);
          return route.includes('{') || route.includes(':')
            ? [filled]
            : [
                filled,
                `${filled}?search=${encodeURIComponent(email)}`,
                `${filled}?q=${encodeURIComponent(t.user.user.username)}`,
              ];
        });
        for (const route of routes) {
          const answer = await call('GET', route, undefined, reader.token);
          const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
          // The hwid in the route itself is echoed by some refusals: only a 2xx counts for it.
          for (const secret of t.secrets) {
            if (secret === t.hwid && route.includes(t.hwid) && answer.status >= 400) continue;
            if (text.includes(secret)) leaks.push(`${t.who}: ${route} ${answer.status} → ${secret}`);
          }
        }
      }
      expect(leaks).toEqual([]);
    });
  }

  it('a can_manageWhitelist-only staff member cannot remove an administrator’s whitelisted game account (writes follow rank)', async () => {
    const reader = await server.createUser({ permissions: ['can_manageWhitelist'] });
    const admin = targets[0] as Target;
    const accountName = admin.secrets[3] as string;
    const list = await call<{ data: Array<{ id: string; name: string }> }>(
      'GET',
      `/admin/whitelist?q=${accountName}`,
      undefined,
      reader.token,
    );
    const entry = list.status === 200 ? list.body.data.find((row) => row.name === accountName) : undefined;
    if (!entry) return; // not even listed: held
    const removed = await call('DELETE', `/admin/whitelist/${entry.id}`, undefined, reader.token);
    expect(removed.status).toBe(403);
    const own = await call<{ data: unknown }>('GET', '/me/whitelist', undefined, admin.user.token);
    expect(JSON.stringify(own.body)).toContain(accountName);
  });

  for (const permission of ['can_manageMap', 'can_manageUsers', 'can_manageUsersOnline'] as const) {
    it(`a ${permission}-only staff member cannot open the live journal of an administrator's bot`, async () => {
      const reader = await server.createUser({ permissions: [permission] });
      const admin = targets[0] as Target;
      const { socket, ack } = await connectAndAuthenticate(server, {
        type: 'log',
        token: reader.token,
        hwid: admin.hwid,
      });
      sockets.push(socket);
      expect(ack).not.toEqual({ ok: true });
    });
  }
});
