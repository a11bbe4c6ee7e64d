import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { RELEASE_PART_BYTES, SOCKET_EVENTS, SOCKET_PATH } from '@bot/contracts';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type LocalCluster, startLocalCluster } from '../../../../deploy/local-cluster.ts';
import { apiClient, freePort, startTestServer, type TestServer } from '../harness.ts';
import { metricValue } from '../helpers/metrics.ts';
import {
  account,
  collect,
  connectAndAuthenticate,
  createBotOwner,
  type TestSocket,
} from '../helpers/realtime.ts';

/** Bots connected through nginx (they reconnect), and bots held by the doomed node only. */
const ROAMING_BOTS = 24;
const STRANDED_BOTS = 3;

let workDir: string;
let cluster: LocalCluster;
/** An extra in-process node on the same PostgreSQL and Redis, outside nginx: seeds users, reads the fleet. */
let control: TestServer;
const sockets: TestSocket[] = [];
const lines: string[] = [];

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'bot-cluster-'));
  const [nginx, postgres, redis, ...nodes] = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  cluster = await startLocalCluster({
    workDir,
    ports: { nginx: nginx!, postgres: postgres!, redis: redis!, nodes },
    env: { LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'Grappe-Essai-Noeuds-2026' },
    onOutput: (line) => lines.push(line),
  });
  control = await startTestServer({
    env: { DATABASE_URL: cluster.databaseUrl, REDIS_URL: cluster.redisUrl ?? '', ...cluster.masterKeyEnv },
    openDatabaseFromConfig: true,
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await control?.close();
  await cluster?.stop();
  await rm(workDir, { recursive: true, force: true });
});

/** A bot agent that comes back through nginx after losing its node, as the SDK does. */
function roamingBot(owner: { botToken: string; hwid: string; accounts: string[] }) {
  const socket: TestSocket = io(cluster.url, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 200,
    reconnectionDelayMax: 1_000,
  });
  sockets.push(socket);
  const bot = { socket, hwid: owner.hwid, authentications: 0 };
  socket.on('connect', () => {
    socket.emit(SOCKET_EVENTS.authenticate, { type: 'bot', token: owner.botToken, hwid: owner.hwid }, () => {
      bot.authentications += 1;
    });
  });
  keepReporting(socket, owner.accounts[0]!);
  return bot;
}

/** A live bot reports every second (the silence timeout is 5 s here). */
function keepReporting(socket: TestSocket, accountName: string): void {
  const timer = setInterval(() => {
    if (socket.connected) socket.emit(SOCKET_EVENTS.botUpdate, { accounts: [account(accountName)] });
  }, 1_000);
  socket.on('disconnect', () => {
    if (!socket.active) clearInterval(timer); // closed for good (not reconnecting)
  });
}

it('a build of the bot goes up in parts through nginx and comes back, ranges included, from any node', async () => {
  const staff = await control.createUser({ permissions: ['can_manageSettings'] });
  const customer = await control.createUser({ permissions: ['can_useGathering'] });
  const viaNginx = apiClient({ api: `${cluster.url}/api` });
  const build = randomBytes(RELEASE_PART_BYTES + 1000);
  const draft = await viaNginx<{ data: { id: string } }>(
    'POST',
    '/admin/releases',
    { version: '4.0.0', channel: 'stable', fileName: 'bot-agent-4.0.0.zip', size: build.length },
    staff.token,
  );
  expect(draft.status).toBe(201);
  for (const [index, part] of [
    build.subarray(0, RELEASE_PART_BYTES),
    build.subarray(RELEASE_PART_BYTES),
  ].entries()) {
    const sent = await fetch(`${cluster.url}/api/admin/releases/${draft.body.data.id}/parts/${index}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${staff.token}`, 'content-type': 'application/octet-stream' },
      body: part,
    });
    expect(sent.status).toBe(204); // nginx lets a whole part through
  }
  const sha256 = createHash('sha256').update(build).digest('hex');
  const published = await viaNginx(
    'POST',
    `/admin/releases/${draft.body.data.id}/publish`,
    { parts: 2, sha256 },
    staff.token,
  );
  expect(published.status).toBe(200);

  const latest = await viaNginx<{ data: { download: { url: string } } }>(
    'GET',
    '/releases/latest',
    undefined,
    customer.token,
  );
  const link = `${cluster.url}/api${latest.body.data.download.url}`;
  const whole = Buffer.from(await (await fetch(link)).arrayBuffer());
  expect(createHash('sha256').update(whole).digest('hex')).toBe(sha256);
  const tail = await fetch(link, { headers: { range: `bytes=${RELEASE_PART_BYTES}-` } });
  expect(tail.status).toBe(206);
  expect(Buffer.from(await tail.arrayBuffer()).equals(build.subarray(RELEASE_PART_BYTES))).toBe(true);
});

it('a node killed with SIGKILL: its bots come back through nginx on the others, the ones that do not are offline after the silence timeout', async () => {
  const staff = await control.createUser({ isAdministrator: true });
  const settings = await apiClient(control)(
    'PUT',
    '/admin/settings',
    { botOfflineTimeoutSeconds: 5 },
    staff.token,
  );
  expect(settings.status).toBe(200);

  const owners = [];
  for (let i = 0; i < ROAMING_BOTS + STRANDED_BOTS; i += 1) owners.push(await createBotOwner(control));
  const roaming = owners.slice(0, ROAMING_BOTS).map(roamingBot);
  const doomed = cluster.nodes[1]!;
  const stranded: string[] = [];
  for (const owner of owners.slice(ROAMING_BOTS)) {
    const { socket, ack } = await connectAndAuthenticate(
      { url: doomed.url },
      { type: 'bot', token: owner.botToken, hwid: owner.hwid },
    );
    sockets.push(socket);
    expect(ack).toEqual({ ok: true });
    keepReporting(socket, owner.accounts[0]!);
    stranded.push(owner.hwid);
  }
  // Staff watch from a node that survives.
  const { socket: admin, ack } = await connectAndAuthenticate(
    { url: cluster.nodes[0]!.url },
    { type: 'admin', token: staff.token },
  );
  sockets.push(admin);
  expect(ack).toEqual({ ok: true });
  const disconnects = collect<string>(admin, 'bot_disconnect');
  await vi.waitFor(() => expect(roaming.every((bot) => bot.authentications === 1)).toBe(true), {
    timeout: 30_000,
  });
  await vi.waitFor(async () =>
    expect(await metricValue(control.app, 'bots_online')).toBe(ROAMING_BOTS + STRANDED_BOTS),
  );

  const killedAt = Date.now();
  await doomed.kill();
  // Bots on the dead node reconnect through nginx to the two others and are online again…
  await vi
    .waitFor(
      async () => {
        expect(roaming.every((bot) => bot.socket.connected)).toBe(true);
        for (const bot of roaming) expect(await control.ctx.live.botState(bot.hwid)).toBeDefined();
        // …and the ones that cannot reconnect do not linger: offline once silent past the timeout.
        for (const hwid of stranded) expect(await control.ctx.live.botState(hwid)).toBeUndefined();
        expect(await metricValue(control.app, 'bots_online')).toBe(ROAMING_BOTS);
        // Staff heard of each stranded bot going offline (the reaping node's message crosses Redis
        // after the state is gone: wait for the message, not only the state).
        expect(disconnects.filter((hwid) => stranded.includes(hwid)).sort()).toEqual([...stranded].sort());
      },
      { timeout: 30_000, interval: 250 },
    )
    .catch((error) => {
      console.log(lines.slice(-30).join('\n')); // the processes' last words
      throw error;
    });
  const recoveredInMs = Date.now() - killedAt;
  const moved = roaming.filter((bot) => bot.authentications > 1).length;
  console.log(
    `node kill: ${moved} bots moved to the surviving nodes, fleet whole again ${recoveredInMs} ms after the kill`,
  );
  expect(moved).toBeGreaterThan(0); // least_conn spread them: the dead node held some
  // Each stranded bot announced offline exactly once, by whichever node reaped it (no duplicate since).
  expect(disconnects.filter((hwid) => stranded.includes(hwid)).sort()).toEqual([...stranded].sort());
  // Roaming bots came back without being announced offline to staff.
  expect(disconnects.filter((hwid) => !stranded.includes(hwid))).toEqual([]);
});
