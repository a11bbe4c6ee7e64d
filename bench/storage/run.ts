/**
 * `npm run bench:storage [-- --bots 300 --minutes 3 --postgres]`: what a bot adds to the database per
 * day and what a node holds in memory. The real server (buildApp, in this process) is seeded with N
 * bot owners (bench/realtime/server-target.ts), N bots connect from load processes and report once a
 * second with 2 game accounts; `pg_total_relation_size` of every table that grows with the fleet is
 * read before the bots connect, at a minute's start and whole minutes later, and the growth is
 * extrapolated per bot and per day. The memory of a node is the real-time benchmark's (its server is
 * seeded by another process, so its RSS is not inflated by the seeding: docs/capacity.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { contextOf } from '../../apps/server/src/context.ts';
import { writeTemplateDataDir } from '../../apps/server/test/database.ts';
import { type BenchPostgres, startBenchPostgres } from '../postgres.ts';
import { seedBenchFixture } from '../realtime/server-target.ts';
import { forkLoadWorker, startLoad } from '../realtime/targets.ts';
import { type Figure, freePort, recordBenchmark, recordedDetails, sleep } from '../shared.ts';

const { values } = parseArgs({
  options: {
    bots: { type: 'string', default: '300' },
    minutes: { type: 'string', default: '3' },
    postgres: { type: 'boolean', default: false },
    workers: { type: 'string', default: '2' },
  },
});

/** The tables that grow with the fleet (the others grow with people: orders, mails, sign-ins). */
const TABLES = [
  'bot_activity_minutes',
  'bot_events',
  'bot_sessions',
  'bot_commands',
  'bot_log_lines',
  'agent_version_samples',
  'audit_log',
] as const;
type Table = (typeof TABLES)[number];
type Sizes = Record<Table, { bytes: number; rows: number }>;
interface StorageRun {
  n: number;
  seconds: number;
  perBotPerDay: number;
  historyPerBotPerDay: number;
  rows: unknown[];
}

const DAY_S = 86_400;

async function main(): Promise<void> {
  const n = Number(values.bots);
  const minutes = Number(values.minutes);
  if (!(n >= 1)) throw new Error('--bots: at least one bot (the RSS with none is read before they connect)');
  const engine = values.postgres ? 'PostgreSQL' : 'PGlite';
  let postgres: BenchPostgres | undefined;
  if (values.postgres) postgres = await startBenchPostgres();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-storage-'));
  if (!postgres) await writeTemplateDataDir(dataDir);
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SOCKET_HANDSHAKE_ALLOWLIST: '127.0.0.1,::1',
    DATABASE_URL: postgres?.url ?? '',
    MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
  });
  const app = await buildApp({ config });
  const workers: ReturnType<typeof forkLoadWorker>[] = [];
  try {
    const fixture = await seedBenchFixture(contextOf(app).db, n);
    await app.listen({ port, host: '127.0.0.1' });
    const sizes = async (): Promise<Sizes> => {
      const entries = [];
      for (const table of TABLES) {
        const [row] = (
          (await contextOf(app).db.execute(
            sql.raw(
              `select pg_total_relation_size('${table}')::bigint as bytes, count(*)::int as rows from ${table}`,
            ),
          )) as unknown as { rows: { bytes: string | number; rows: number }[] }
        ).rows;
        entries.push([table, { bytes: Number(row?.bytes ?? 0), rows: Number(row?.rows ?? 0) }]);
      }
      return Object.fromEntries(entries) as Sizes;
    };
    const before = await sizes();

    const shares = Number(values.workers);
    for (let i = 0; i < shares; i += 1) workers.push(forkLoadWorker());
    const started = Date.now();
    await Promise.all(
      workers.map((worker, index) =>
        startLoad(worker, {
          url: `http://127.0.0.1:${port}`,
          bots: fixture.bots.filter((_, bot) => bot % shares === index),
          adminToken: null,
          connectPerSecond: 500,
        }),
      ),
    );
    console.log(`${n} bots connected in ${((Date.now() - started) / 1000).toFixed(1)} s (${engine})`);
    const connected = await sizes();
    // From just after a minute's rows are written (the history flushes every 15 s the minutes ended).
    const nextMinute = Math.ceil(Date.now() / 60_000) * 60_000 + 20_000;
    await sleep(nextMinute - Date.now());
    const from = await sizes();
    const fromAt = Date.now();
    await sleep(minutes * 60_000);
    const to = await sizes();
    const seconds = (Date.now() - fromAt) / 1000;

    const rows = TABLES.map((table) => {
      const grown = to[table].bytes - from[table].bytes;
      const addedRows = to[table].rows - from[table].rows;
      const connectBytes = connected[table].bytes - before[table].bytes;
      const connectRows = connected[table].rows - before[table].rows;
      return {
        table,
        bytesPerBotPerDay: (grown / n) * (DAY_S / seconds),
        rowsPerBotPerDay: (addedRows / n) * (DAY_S / seconds),
        bytesPerRow: addedRows > 0 ? grown / addedRows : connectRows > 0 ? connectBytes / connectRows : 0,
        connectRowsPerBot: connectRows / n,
        totalBytes: to[table].bytes,
      };
    });
    for (const row of rows)
      console.log(
        `${row.table}: ${Math.round(row.bytesPerBotPerDay)} B/bot/day (${row.rowsPerBotPerDay.toFixed(0)} rows, ${Math.round(row.bytesPerRow)} B/row), ${row.connectRowsPerBot.toFixed(2)} rows/bot on connection`,
      );
    const perBotPerDay = rows.reduce((total, row) => total + row.bytesPerBotPerDay, 0);
    console.log(`total ${(perBotPerDay / 1024).toFixed(0)} KB/bot/day`);
    const key = values.postgres ? 'storagePostgres' : 'storage';
    const run: StorageRun = {
      n,
      seconds,
      perBotPerDay,
      historyPerBotPerDay: rows.find((row) => row.table === 'bot_activity_minutes')?.bytesPerBotPerDay ?? 0,
      rows,
    };
    // Runs of other sizes stay recorded (the memory is read at several fleet sizes).
    const runs = [
      ...(recordedDetails<{ runs: StorageRun[] }>(key)?.runs ?? []).filter((r) => r.n !== n),
      run,
    ].sort((a, b) => a.n - b.n);
    const figures: Figure[] = runs.flatMap((r) => [
      { name: `${r.n} bots: bytes per bot per day, every table`, value: r.perBotPerDay, unit: 'B' },
      { name: `${r.n} bots: bytes per bot per day, minute history`, value: r.historyPerBotPerDay, unit: 'B' },
    ]);
    const memory = runs
      .map(
        (r) =>
          `| ${r.n.toLocaleString('en')} | ${r.seconds.toFixed(0)} s | ${Math.round(r.historyPerBotPerDay / 1024).toLocaleString('en')} KB | ${Math.round(r.perBotPerDay / 1024).toLocaleString('en')} KB |`,
      )
      .join('\n');
    const heading = values.postgres ? '## Storage per bot on PostgreSQL' : '## Storage per bot';
    const table = rows
      .map(
        (row) =>
          `| \`${row.table}\` | ${Math.round(row.bytesPerBotPerDay).toLocaleString('en')} | ${row.rowsPerBotPerDay.toFixed(0)} | ${Math.round(row.bytesPerRow)} | ${row.connectRowsPerBot.toFixed(2)} |`,
      )
      .join('\n');
    recordBenchmark({
      heading,
      key,
      figures,
      details: { engine, runs },
      section: `${heading}

\`npm run bench:storage${values.postgres ? ' -- --postgres' : ''}\` (bench/storage/run.ts), ${new Date().toISOString().slice(0, 16)}Z, ${engine}, ${n} bots reporting once a second with 2 game accounts for ${seconds.toFixed(0)} s, extrapolated to a day (docs/capacity.md, "Storage per bot"). 2 cores shared with other work: the growth is counted in rows and pages, not in time, so the load matters little.

| table | bytes per bot per day | rows per bot per day | bytes per row | rows per bot on connection |
|---|---|---|---|---|
${table}

Every table: **${Math.round(perBotPerDay / 1024).toLocaleString('en')} KB per bot per day** in this run. Each run recorded:

| bots | measured over | minute history per bot per day | every table per bot per day |
|---|---|---|---|
${memory}
`,
    });
  } finally {
    for (const worker of workers) worker.kill();
    await app.close();
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
