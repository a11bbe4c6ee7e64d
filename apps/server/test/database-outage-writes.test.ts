import type { BotHistoryPoint } from '@bot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inTransaction } from '../src/context.ts';
import { apiClient, startTestServer, TEST_PASSWORD, type TestServer } from './harness.ts';
import { account, connectOwnerBot, createBotOwner, type TestSocket } from './helpers/realtime.ts';
import { type PostgresServer, startPostgresServer } from './postgres-server.ts';

/**
 * Operations round 3, defect 1: PostgreSQL stopped (`pg_ctl -m fast`) while connections are checked
 * out in the middle of transactions killed the node (`Connection terminated unexpectedly`: only the
 * pool listened for errors, not a client held by a transaction). The node must answer 503, recover
 * by itself, and write the history it buffered meanwhile once the database is back.
 */
let postgres: PostgresServer;

/**
 * Each long wait bounded and named: a CI run once spent the whole test timeout here without saying
 * which step stalled; now a stall fails with the step's name.
 */
async function step<T>(name: string, work: Promise<T>, limitMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`étape bloquée plus de ${limitMs} ms : ${name}`)), limitMs);
  });
  try {
    return await Promise.race([work, stalled]);
  } finally {
    clearTimeout(timer);
  }
}
let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  server = await startTestServer({
    openDatabaseFromConfig: true,
    env: {
      DATABASE_URL: postgres.url,
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    },
    realtime: { historyFlushMs: 3_600_000, botUpdatesPerSecond: 100 },
  });
}, 120_000);
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await step('nœud fermé', server?.close() ?? Promise.resolve());
  await step('PostgreSQL détruit', postgres?.destroy() ?? Promise.resolve());
}, 90_000);

describe('PostgreSQL stopped in the middle of transactions under write traffic', () => {
  it('answers 503, keeps the node up, recovers, and writes the buffered history', {
    timeout: 120_000,
  }, async () => {
    const call = apiClient(server);
    const owner = await createBotOwner(server, { accounts: ['Miner'] });
    const bot = (await connectOwnerBot(server, owner)).socket;
    sockets.push(bot);
    const login = () =>
      call('POST', '/auth/login', { username: owner.user.username, password: TEST_PASSWORD });
    expect((await login()).status).toBe(200);

    // Transactions holding their connection between two statements when the server goes.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reachedGate: Promise<void>[] = [];
    const held = Array.from({ length: 4 }, () => {
      let reached!: () => void;
      reachedGate.push(new Promise<void>((resolve) => (reached = resolve)));
      return inTransaction(server.ctx, async (tx) => {
        await tx.db.execute(sql`select 1`);
        reached();
        await gate;
        await tx.db.execute(sql`select 1`);
      });
    });
    const heldOutcomes = Promise.allSettled(held);
    await step('transactions ouvertes', Promise.all(reachedGate));
    // Write traffic beside them: sign-ins write sessions, the bot's reports feed the history.
    let writing = true;
    const traffic = (async () => {
      const answers: number[] = [];
      // A dropped connection counts as status 0 (the test fails on it, it never rejects).
      const attempt = () =>
        login().then(
          (answer) => answer.status,
          () => 0,
        );
      while (writing) answers.push(...(await Promise.all([attempt(), attempt(), attempt()])));
      return answers;
    })();
    let gathered = 0;
    const reports = setInterval(() => {
      gathered += 1;
      bot.emit('bot_update', {
        accounts: [account('Miner', { stats: { gathered, treasures: 0, kamas: 0, xp: 0 } })],
      });
    }, 20);

    await vi.waitFor(async () => {
      const mine = await call<{ data: { history: BotHistoryPoint[] } }>(
        'GET',
        '/me/bot',
        undefined,
        owner.token,
      );
      expect(mine.body.data.history.reduce((total, point) => total + point.gathered, 0)).toBeGreaterThan(3);
    });
    const settingsBefore = (await call('GET', '/settings/public')).body;
    await step('PostgreSQL arrêté', postgres.stop());
    release();
    const outcomes = await step('transactions en cours rejetées', heldOutcomes);
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    await vi.waitFor(async () => expect((await login()).status).toBe(503), { timeout: 15_000 });
    expect((await call('GET', '/healthz')).status).toBe(200);
    // Every page asks for the public settings: they are served from what was last read (the
    // cache forgotten here, as its 2 s would lapse during a longer outage), not a 503.
    server.ctx.settingsCache.forget();
    server.ctx.maintenanceCache.forget();
    const settingsDuring = await call('GET', '/settings/public');
    expect(settingsDuring.status).toBe(200);
    expect(settingsDuring.body).toEqual(settingsBefore);
    clearInterval(reports);
    const reportedDuringOutage = gathered;

    await step('PostgreSQL redémarré', postgres.start());
    writing = false;
    const statuses = await step('trafic d’écriture terminé', traffic);
    // Every answer was a success or a 503, never a 500 or a dropped connection.
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    await vi.waitFor(async () => expect((await login()).status).toBe(200), {
      timeout: 20_000,
      interval: 250,
    });

    // The history the node buffered before and during the outage is written, none lost: a restart
    // writes what is still buffered (the current minute) and the rows are read from the database.
    await step('nœud redémarré', server.restart());
    const rows = (await server.ctx.db.execute(
      sql`select coalesce(sum(gathered), 0)::int as total from bot_activity_minutes where hwid = ${owner.hwid}`,
    )) as unknown as { rows: { total: number }[] };
    expect(rows.rows[0]?.total).toBe(reportedDuringOutage - 1);
  });
});
