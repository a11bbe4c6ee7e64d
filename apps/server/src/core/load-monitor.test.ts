import { readFileSync } from 'node:fs';
import { type BotClient, createBotClient } from '@bot/bot-agent';
import type { BotState } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { metricValue } from '../../test/helpers/metrics.ts';
import {
  account,
  collect,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  openSocket,
  type TestSocket,
  waitFor,
} from '../../test/helpers/realtime.ts';
import { upgradeAnswer } from '../../test/raw-http.ts';

let server: TestServer;
/** Every log line of the node, parsed. */
const logLines: { level: number; msg: string; cause?: string }[] = [];
const sockets: TestSocket[] = [];
const clients: BotClient[] = [];

beforeAll(async () => {
  // Utilisation never reaches 2: not overloaded until a test lowers the thresholds.
  server = await startTestServer({
    load: {
      sampleMs: 50,
      enterUtilization: 2,
      exitUtilization: 2,
      samplesToEnter: 1,
      warmupMs: 0,
      enterOpenFiles: 2,
      exitOpenFiles: 2,
    },
    onLogLine: (line) => logLines.push(JSON.parse(line)),
  });
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

/** Lowers (or raises back) the thresholds: the next samples decide. */
function setThresholds(enter: number, exit: number) {
  Object.assign(server.ctx.config.load, { enterUtilization: enter, exitUtilization: exit });
}

const readiness = async () => {
  const answer = await fetch(`${server.api}/readyz`);
  return {
    status: answer.status,
    body: (await answer.json()) as { code?: string; error?: string; load?: unknown },
  };
};

it('an overloaded node fails readiness, refuses new bots, keeps those it holds, and recovers', async () => {
  expect((await readiness()).status).toBe(200);
  // The refusals' series exist at 0 before the first refusal (an alert on their rate needs them).
  expect(await server.ctx.metrics.registry.metrics()).toContain(
    'socket_handshakes_refused_total{code="OVERLOADED"} 0',
  );
  const held = await createBotOwner(server, { accounts: ['Charge-Un'] });
  const heldBot = await connectOwnerBot(server, held);
  sockets.push(heldBot.socket);
  expect(heldBot.ack).toEqual({ ok: true });
  const watcher = await connectAndAuthenticate(server, {
    type: 'client',
    token: held.token,
    hwid: held.hwid,
  });
  sockets.push(watcher.socket);
  const seen = collect<BotState>(watcher.socket, 'bot_update');

  // A bot whose socket opened just before the overload authenticates just after it.
  const newcomer = await createBotOwner(server, { accounts: ['Charge-Deux'] });
  const lateSocket = openSocket(server, { hwid: newcomer.hwid });
  sockets.push(lateSocket);
  await waitFor(lateSocket, 'connect');

  setThresholds(0, 0);
  await vi.waitFor(async () => expect((await readiness()).body.code).toBe('OVERLOADED'));
  const overloadedReadiness = await readiness();
  expect(overloadedReadiness.status).toBe(503);
  // The answer says why, for the operator reading it (the probes are not run: they would queue):
  // the last figures, rounded, beside the thresholds they are judged against.
  const load = overloadedReadiness.body.load as Record<string, number | string>;
  expect(load).toEqual({
    cause: 'eventLoop',
    utilization: expect.any(Number),
    enterUtilization: 0,
    exitUtilization: 0,
    openFilesShare: expect.any(Number),
    enterOpenFiles: 2,
    exitOpenFiles: 2,
    delayP99Ms: expect.any(Number),
  });
  expect(String(load.utilization)).toMatch(/^\d(\.\d{1,3})?$/);
  expect(await metricValue(server.app, 'node_overloaded')).toBe(1);
  expect(logLines).toContainEqual(
    expect.objectContaining({ level: 40, cause: 'eventLoop', msg: expect.stringContaining('surchargé') }),
  );

  // A new bot (no Origin) is refused at the handshake, before any work, with a retry hint: behind
  // nginx the 503 sends it to the next node.
  const handshake = await upgradeAnswer(server.url);
  expect(handshake.head).toMatch(/^HTTP\/1\.1 503/);
  expect(handshake.head).toMatch(/Retry-After: 5/i);
  expect(JSON.parse(handshake.body)).toMatchObject({
    code: 'OVERLOADED',
    error: expect.stringContaining('surchargé'),
  });
  expect(await metricValue(server.app, 'socket_handshakes_refused_total', { code: 'OVERLOADED' })).toBe(1);
  // One already through the handshake is refused when it authenticates, with the same French reason.
  const late = await lateSocket.timeout(5_000).emitWithAck('authenticate', {
    type: 'bot',
    token: newcomer.botToken,
    hwid: newcomer.hwid,
  });
  expect(late).toMatchObject({ ok: false, code: 'OVERLOADED', error: expect.stringContaining('surchargé') });
  // Browsers still open their page's socket (a page is cheap next to a fleet).
  const page = openSocket(server, { origin: server.url });
  sockets.push(page);
  await waitFor(page, 'connect');

  // The SDK keeps retrying with its jittered backoff until the node takes bots again.
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: newcomer.accessKey,
    hwid: newcomer.hwid,
    version: '1.0.0',
  });
  clients.push(client);
  const connected = client.connect();

  // The bot already held is never dropped for load: its reports still reach its owner.
  heldBot.socket.emit('bot_update', { accounts: [account('Charge-Un', { status: 'fighting' })] });
  await vi.waitFor(() => expect(seen.some((state) => state.accounts[0]?.status === 'fighting')).toBe(true));
  expect(heldBot.socket.connected).toBe(true);

  setThresholds(2, 2);
  await vi.waitFor(async () => expect((await readiness()).status).toBe(200));
  await connected;
  expect(client.isConnected).toBe(true);
  expect(await metricValue(server.app, 'node_overloaded')).toBe(0);
  // Leaving the overload is told at the same level as entering it.
  expect(logLines).toContainEqual(
    expect.objectContaining({ level: 40, msg: expect.stringContaining('de nouveau disponible') }),
  );
});

it("overloaded, a bot's watchers get its latest state at each flush instead of every change", async () => {
  const owner = await createBotOwner(server, { accounts: ['Charge-Trois'] });
  const bot = await connectOwnerBot(server, owner);
  sockets.push(bot.socket);
  const watcher = await connectAndAuthenticate(server, {
    type: 'client',
    token: owner.token,
    hwid: owner.hwid,
  });
  sockets.push(watcher.socket);
  const seen = collect<BotState>(watcher.socket, 'bot_update');
  setThresholds(0, 0);
  await vi.waitFor(async () => expect((await readiness()).body.code).toBe('OVERLOADED'));

  for (const status of ['fighting', 'banking', 'idle'] as const)
    bot.socket.emit('bot_update', { accounts: [account('Charge-Trois', { status })] });
  await vi.waitFor(() => expect(seen.at(-1)?.accounts[0]?.status).toBe('idle'));
  // Three changes, at most two messages (the flush may fall between them), the latest last.
  expect(seen.length).toBeLessThanOrEqual(2);
  setThresholds(2, 2);
  await vi.waitFor(async () => expect((await readiness()).status).toBe(200));
});

it('a node near its open-file limit is overloaded too: every socket is a file', async () => {
  expect((await readiness()).status).toBe(200);
  // Any descriptor at all is past a limit of one in a million; below zero, never idle enough.
  Object.assign(server.ctx.config.load, { enterOpenFiles: 1e-6, exitOpenFiles: 0 });
  await vi.waitFor(async () => expect((await readiness()).body.code).toBe('OVERLOADED'));
  expect((await readiness()).body.load).toMatchObject({ cause: 'openFiles', enterOpenFiles: 1e-6 });
  expect((await upgradeAnswer(server.url)).head).toMatch(/^HTTP\/1\.1 503/);
  expect(server.ctx.load.openFilesShare).toBeGreaterThan(0);
  expect(await metricValue(server.app, 'node_open_files_ratio')).toBeGreaterThan(0);
  expect(logLines).toContainEqual(expect.objectContaining({ level: 40, cause: 'openFiles' }));
  Object.assign(server.ctx.config.load, { enterOpenFiles: 2, exitOpenFiles: 2 });
  await vi.waitFor(async () => expect((await readiness()).status).toBe(200));
});

it('keeps files for itself: the HTTP server holds at most 95 % of the open-file limit in connections', () => {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((candidate) => candidate.startsWith('Max open files'));
  const limit = Number(line?.split(/\s+/)[3]);
  expect(server.app.server.maxConnections).toBe(Math.floor(limit * 0.95));
});
