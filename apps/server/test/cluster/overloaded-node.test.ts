import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BotClient, createBotClient } from '@bot/bot-agent';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type LocalCluster, startLocalCluster } from '../../../../deploy/local-cluster.ts';
import { freePort, startTestServer, type TestServer } from '../harness.ts';
import { createBotOwner } from '../helpers/realtime.ts';
import { fetchDevelopmentRoot } from '../helpers/trust-root.ts';

const METRICS_TOKEN = 'jeton-des-mesures-de-la-grappe';
const NEW_BOTS = 9;
/** The third node is overloaded for good: its thresholds are 0 (always busy enough, never idle enough). */
const OVERLOADED = 2;

let workDir: string;
let cluster: LocalCluster;
/** An in-process node on the same PostgreSQL and Redis, outside nginx: seeds the bot owners. */
let control: TestServer;
const clients: BotClient[] = [];

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'bot-overload-'));
  const [nginx, postgres, redis, ...nodes] = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  cluster = await startLocalCluster({
    workDir,
    ports: { nginx: nginx!, postgres: postgres!, redis: redis!, nodes },
    env: { LOG_LEVEL: 'warn', METRICS_TOKEN },
    nodeEnv: { [OVERLOADED]: { LOAD_ENTER_UTILIZATION: '0', LOAD_EXIT_UTILIZATION: '0' } },
  });
  control = await startTestServer({
    env: { DATABASE_URL: cluster.databaseUrl, REDIS_URL: cluster.redisUrl ?? '', ...cluster.masterKeyEnv },
    openDatabaseFromConfig: true,
  });
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  await control?.close();
  await cluster?.stop();
  await rm(workDir, { recursive: true, force: true });
});

/** One series of a node's own metrics (`GET /api/metrics`), e.g. `socket_connections{type="bot"}` (0 when absent). */
async function metricOf(url: string, series: string): Promise<number> {
  const text = await (
    await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return Number(line?.split(' ')[1] ?? 0);
}

it('behind nginx, new bots land on the nodes that are not overloaded', async () => {
  const overloaded = cluster.nodes[OVERLOADED]!;
  // Past its start-up grace the node calls itself overloaded, and readiness says so.
  await vi.waitFor(
    async () => {
      const answer = await fetch(`${overloaded.url}/api/readyz`);
      expect(answer.status).toBe(503);
      expect(await answer.json()).toMatchObject({ code: 'OVERLOADED' });
    },
    { timeout: 30_000, interval: 250 },
  );

  // Bots connect through nginx with the SDK, one at a time (least_conn would pick the emptiest node).
  for (let i = 0; i < NEW_BOTS; i += 1) {
    const owner = await createBotOwner(control);
    const client = createBotClient({
      serverUrl: cluster.url,
      trustRoot: await fetchDevelopmentRoot(cluster.url),
      accessKey: owner.accessKey,
      hwid: owner.hwid,
      version: '1.0.0',
    });
    clients.push(client);
    await client.connect();
    expect(client.isConnected).toBe(true);
  }

  const held = await Promise.all(
    cluster.nodes.map((node) => metricOf(node.url, 'socket_connections{type="bot"}')),
  );
  expect(held[OVERLOADED]).toBe(0);
  expect(held.reduce((total, count) => total + count, 0)).toBe(NEW_BOTS);
  // nginx did try the overloaded node (least_conn: it held the fewest), got its 503 and went on to
  // the next at once: no bot was refused at authentication, none had to wait out a retry.
  expect(
    await metricOf(overloaded.url, 'socket_handshakes_refused_total{code="OVERLOADED"}'),
  ).toBeGreaterThanOrEqual(1);
  expect(await metricOf(overloaded.url, 'socket_refusals_total{code="OVERLOADED"}')).toBe(0);
});
