/**
 * `npm run bench:revocation [-- --bots 3000] [--no-write]`
 *
 * How long a right withdrawn from running bots takes to reach every one of them on a three-node
 * cluster behind nginx (PostgreSQL, Redis): staff raise the minimum agent version above the bots'
 * and we time, from the moment `PUT /api/admin/settings` is sent, until each connected agent has been
 * told `BOT_VERSION_OUTDATED`. The goal is 5 s for the last one. The baseline, in the same run, is
 * the same change reaching a browser socket on each node (`settings_update`): the floor of any
 * cross-node reaction. Results: the "Revocation" section of docs/benchmarks.md and the `revocation`
 * key of docs/benchmarks.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { io, type Socket } from 'socket.io-client';
import { startLocalCluster } from '../../deploy/local-cluster.ts';
import { seedClusterFixture } from '../cluster/seed.ts';
import { compared, freePort, percentile, recordBenchmark } from '../shared.ts';

const { values } = parseArgs({
  options: {
    bots: { type: 'string', default: '3000' },
    'no-write': { type: 'boolean', default: false },
  },
});
const botCount = Number(values.bots);
const GOAL_MS = 5_000;

function connect(
  url: string,
  payload: Record<string, unknown>,
  query?: Record<string, string>,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, query });
    socket.once('connect_error', reject);
    socket.once('connect', () =>
      socket.emit('authenticate', payload, (answer: { ok: boolean; code?: string }) =>
        answer.ok ? resolve(socket) : reject(new Error(`authenticate refused: ${answer.code}`)),
      ),
    );
  });
}

/** Resolves with the instant (ms since the epoch) the event arrives. */
const arrival = <T>(socket: Socket, event: string, accept: (payload: T) => boolean = () => true) =>
  new Promise<number>((resolve) => {
    socket.on(event, (payload: T) => {
      if (accept(payload)) resolve(Date.now());
    });
  });

async function main(): Promise<void> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'bench-revocation-'));
  const [nginx, postgres, redis, ...nodes] = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  const cluster = await startLocalCluster({
    workDir,
    shared: true,
    ports: { nginx: nginx!, postgres: postgres!, redis: redis!, nodes },
    env: { LOG_LEVEL: 'warn' },
    onOutput: (line) => {
      if (/error|fatal/i.test(line)) console.log(line);
    },
  });
  const sockets: Socket[] = [];
  try {
    const fixture = await seedClusterFixture(cluster, workDir, botCount);
    // The agents through nginx (spread over the nodes as in production), a staff page on each node.
    // In groups, each agent reporting every 10 s as the SDK's keep-alive does (a silent one is closed).
    for (let start = 0; start < fixture.bots.length; start += 50) {
      const group = fixture.bots.slice(start, start + 50);
      sockets.push(
        ...(await Promise.all(
          group.map((bot) => connect(cluster.url, { token: bot.botToken, type: 'bot', hwid: bot.hwid })),
        )),
      );
    }
    const keepAlive = setInterval(() => {
      for (const socket of sockets.slice(0, fixture.bots.length)) socket.emit('bot_update', { accounts: [] });
    }, 10_000);
    const pages = await Promise.all(
      cluster.nodes.map((node) => connect(node.url, { token: fixture.adminToken, type: 'admin' })),
    );
    sockets.push(...pages);
    console.log(
      `  ${fixture.bots.length} agents connected through nginx, a staff page on each of ${pages.length} nodes`,
    );

    const refused = sockets
      .slice(0, fixture.bots.length)
      .map((socket) =>
        arrival<{ code: string }>(socket, 'auth_error', (error) => error.code === 'BOT_VERSION_OUTDATED'),
      );
    const told = pages.map((page) => arrival(page, 'settings_update'));
    const changedAt = Date.now();
    const answer = await fetch(`${cluster.url}/api/admin/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${fixture.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ minBotVersion: '9.0.0' }),
    });
    clearInterval(keepAlive);
    if (!answer.ok) throw new Error(`settings refused: ${answer.status} ${await answer.text()}`);
    const agentsMs = (await Promise.all(refused))
      .map((at) => Math.max(0, at - changedAt))
      .sort((a, b) => a - b);
    const pagesMs = (await Promise.all(told)).map((at) => Math.max(0, at - changedAt)).sort((a, b) => a - b);
    const last = agentsMs.at(-1) ?? 0;
    const baseline = Math.max(1, pagesMs.at(-1) ?? 0);
    const figures = [
      {
        ...compared({ name: 'last agent told, after the change', value: last, unit: 'ms', baseline }),
        goal: `≤ ${GOAL_MS} ms`,
        met: last <= GOAL_MS,
      },
      { name: 'median agent told', value: percentile(agentsMs, 50), unit: 'ms' },
    ];
    const rows = [
      `| agents told (of ${fixture.bots.length}) | ${agentsMs.length} |`,
      `| median / p99 / last | ${percentile(agentsMs, 50)} / ${percentile(agentsMs, 99)} / ${last} ms |`,
      `| baseline: the change reaching a staff page on each node (last) | ${baseline} ms |`,
      `| last agent / baseline | ${(last / baseline).toFixed(2)} |`,
      `| goal: every agent within 5 s | ${last <= GOAL_MS ? 'met' : 'missed'} |`,
    ];
    console.log(rows.join('\n'));
    if (!values['no-write']) {
      recordBenchmark({
        heading: '## Revocation',
        key: 'revocation',
        figures,
        details: {
          bots: fixture.bots.length,
          nodes: cluster.nodes.length,
          agentsMs: [agentsMs[0], percentile(agentsMs, 50), last],
          pagesMs,
        },
        section: [
          '## Revocation',
          '',
          `\`npm run bench:revocation\`, ${new Date().toISOString()}: ${fixture.bots.length} agents at 1.0.0 on three nodes behind nginx (PostgreSQL, Redis); staff raise the minimum version to 9.0.0 through nginx.`,
          '',
          '| figure | value |',
          '|---|---|',
          ...rows,
          '',
        ].join('\n'),
      });
    }
  } finally {
    for (const socket of sockets) socket.disconnect();
    await cluster.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
