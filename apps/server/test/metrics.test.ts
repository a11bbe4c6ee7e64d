import type { BotState } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './harness.ts';
import {
  account,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  waitFor,
} from './helpers/realtime.ts';

const METRICS_TOKEN = 'jeton-de-supervision-0123456789';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { METRICS_TOKEN }, realtime: { adminFlushMs: 50 } });
});
afterAll(async () => server?.close());

/** One scrape, as Prometheus does it: `name{labels} value` lines. */
async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(`${server.api}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    const match = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}
const value = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0;

describe('GET /api/metrics', () => {
  it('is for operators only: no token, no metrics', async () => {
    const call = apiClient(server);
    expect((await call('GET', '/metrics')).status).toBe(401);
    expect((await call('GET', '/metrics', undefined, 'un-autre-jeton-0123456789')).status).toBe(401);
    const withoutToken = await startTestServer();
    try {
      expect((await apiClient(withoutToken)('GET', '/metrics', undefined, METRICS_TOKEN)).status).toBe(404);
    } finally {
      await withoutToken.close();
    }
  });

  it('moves with real traffic: HTTP latency, errors, sockets, bots online, updates in and out', async () => {
    const before = await scrape();
    const owner = await createBotOwner(server, { accounts: ['Metrique'] });
    const bot = await connectOwnerBot(server, owner);
    const watcher = await connectAndAuthenticate(server, {
      type: 'client',
      token: owner.token,
      hwid: owner.hwid,
    });
    const admin = await server.createUser({ permissions: ['can_manageMap'] });
    const fleet = await connectAndAuthenticate(server, { type: 'admin', token: admin.token });
    const seenByOwner = waitFor<BotState>(
      watcher.socket,
      'bot_update',
      (state) => state.accounts.length === 1,
    );
    const seenByAdmin = waitFor<BotState[]>(fleet.socket, 'bot_update');
    bot.socket.emit('bot_update', { accounts: [account('Metrique')] });
    await Promise.all([seenByOwner, seenByAdmin]);
    await apiClient(server)('GET', '/me/info'); // 401 UNAUTHORIZED

    const after = await scrape();
    expect(value(after, 'bot_updates_received_total')).toBe(value(before, 'bot_updates_received_total') + 1);
    expect(value(after, 'bot_states_sent_total{audience="owner"}')).toBeGreaterThan(
      value(before, 'bot_states_sent_total{audience="owner"}'),
    );
    expect(value(after, 'bot_states_sent_total{audience="admin"}')).toBeGreaterThan(
      value(before, 'bot_states_sent_total{audience="admin"}'),
    );
    expect(value(after, 'socket_connections{type="bot"}')).toBe(1);
    expect(value(after, 'socket_connections{type="client"}')).toBe(1);
    expect(value(after, 'socket_connections{type="admin"}')).toBe(1);
    expect(value(after, 'bots_online')).toBe(1);
    expect(value(after, 'http_errors_total{code="UNAUTHORIZED"}')).toBeGreaterThan(
      value(before, 'http_errors_total{code="UNAUTHORIZED"}'),
    );
    expect(
      value(
        after,
        'http_request_duration_seconds_count{method="POST",route="/api/bot/sessions",status="201"}',
      ),
    ).toBe(1);
    expect(after.has('nodejs_eventloop_lag_seconds')).toBe(true);
    for (const socket of [bot.socket, watcher.socket, fleet.socket]) socket.disconnect();
  });
});
