/**
 * Benchmark target "server": the real app (buildApp, PGlite in a temporary directory), seeded in bulk
 * with N bot owners (both bot permissions, 2 whitelisted accounts, a bot session each), a web session
 * for one owner in ten and one administrator. Reports its CPU and RSS over IPC.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { contextOf } from '../../apps/server/src/context.ts';
import { hashSecret, newId, newSecret } from '../../apps/server/src/core/ids.ts';
import type { Db } from '../../apps/server/src/db/client.ts';
import { userGrants } from '../../apps/server/src/modules/access/index.ts';
import { sessions } from '../../apps/server/src/modules/auth/index.ts';
import { botSessions } from '../../apps/server/src/modules/bots/index.ts';
import { users } from '../../apps/server/src/modules/users/index.ts';
import { whitelistEntries } from '../../apps/server/src/modules/whitelist/index.ts';
import { writeTemplateDataDir } from '../../apps/server/test/database.ts';
import type { BenchBot, BenchFixture, TargetMessage } from './protocol.ts';

const BATCH = 500;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

async function main(): Promise<void> {
  const count = Number(process.argv[2]);
  const port = Number(process.argv[3]);
  const dataDir = process.argv[4] ?? '';
  const mode = process.argv[5] === 'seed' ? 'seed' : 'serve';
  const loaded = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Every simulated bot connects from this machine.
    SOCKET_HANDSHAKE_ALLOWLIST: '127.0.0.1,::1',
    // Set by `--postgres` (bench/postgres.ts); the embedded database otherwise.
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    // A benchmark's throw-away data: a fixed master key, never a key file left beside DATA_DIR.
    MASTER_KEY: process.env.MASTER_KEY || Buffer.alloc(32, 9).toString('base64'),
  });
  // Set by `--map-feed`: staff maps offering a viewport follow it from this many online bots.
  const fullFeedMaxBots = process.env.BENCH_FULL_FEED_MAX_BOTS;
  const config = fullFeedMaxBots
    ? { ...loaded, realtime: { ...loaded.realtime, fullFeedMaxBots: Number(fullFeedMaxBots) } }
    : loaded;
  // The seeding process finds the embedded database already migrated, as a restart would.
  if (mode === 'seed' && !config.databaseUrl) await writeTemplateDataDir(dataDir);
  const app = await buildApp({ config });
  if (mode === 'seed') {
    await seed(contextOf(app).db, count, dataDir);
    await app.close();
    process.exit(0);
  }
  await serve(app, port, dataDir);
}

/** Seeds in its own process, so the serving process starts from a clean heap (RSS is measured). */
async function seed(db: Db, count: number, dataDir: string): Promise<void> {
  const fixture = await seedBenchFixture(db, count);
  await writeFile(path.join(dataDir, 'fixture.json'), JSON.stringify(fixture));
}

/**
 * N bot owners (both bot permissions, 2 whitelisted accounts, a bot session each), a web session for
 * one owner in ten and one administrator, inserted in bulk (also used by bench/cluster).
 */
export async function seedBenchFixture(db: Db, count: number): Promise<BenchFixture> {
  const passwordHash = 'not-a-password-hash'; // nobody signs in: sessions are created directly
  const now = new Date();
  const expiresAt = new Date(Date.now() + 24 * 3_600_000);
  const userRows: (typeof users.$inferInsert)[] = [];
  const grantRows: (typeof userGrants.$inferInsert)[] = [];
  const whitelistRows: (typeof whitelistEntries.$inferInsert)[] = [];
  const botSessionRows: (typeof botSessions.$inferInsert)[] = [];
  const webSessionRows: (typeof sessions.$inferInsert)[] = [];
  const bots: BenchBot[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = newId();
    const hwid = `BENCH-${String(i).padStart(6, '0')}-${newSecret(6)}`;
    const botKeyHash = hashSecret(newSecret());
    userRows.push({
      id,
      username: `bench${i}`,
      email: `bench${i}@bench.localhost`,
      passwordHash,
      hwid,
      botKeyHash,
      activatedAt: now,
    });
    for (const permission of ['can_useGathering', 'can_useTreasure']) {
      grantRows.push({ id: newId(), userId: id, permission, expiresAt: null, source: 'manual' });
    }
    const accounts = [`bench${i}-a`, `bench${i}-b`];
    for (const name of accounts) whitelistRows.push({ id: newId(), userId: id, name });
    const botToken = `bs_${newSecret()}`;
    botSessionRows.push({
      id: newId(),
      userId: id,
      tokenHash: hashSecret(botToken),
      hwid,
      botKeyHash,
      version: '1.0.0',
      expiresAt,
    });
    let ownerToken: string | null = null;
    if (i % 10 === 0) {
      ownerToken = newSecret();
      webSessionRows.push({ id: newId(), userId: id, tokenHash: hashSecret(ownerToken), expiresAt });
    }
    bots.push({ hwid, botToken, ownerToken, accounts });
  }
  const adminId = newId();
  const adminToken = newSecret();
  userRows.push({
    id: adminId,
    username: 'bench-admin',
    email: 'bench-admin@bench.localhost',
    passwordHash,
    isAdministrator: true,
    activatedAt: now,
  });
  webSessionRows.push({ id: newId(), userId: adminId, tokenHash: hashSecret(adminToken), expiresAt });

  await insertInBatches(userRows, (batch) => db.insert(users).values(batch));
  await insertInBatches(grantRows, (batch) => db.insert(userGrants).values(batch));
  await insertInBatches(whitelistRows, (batch) => db.insert(whitelistEntries).values(batch));
  await insertInBatches(botSessionRows, (batch) => db.insert(botSessions).values(batch));
  await insertInBatches(webSessionRows, (batch) => db.insert(sessions).values(batch));

  return { bots, adminToken };
}

async function serve(
  app: Awaited<ReturnType<typeof buildApp>>,
  port: number,
  dataDir: string,
): Promise<void> {
  const { db } = contextOf(app);
  const fixtureFile = path.join(dataDir, 'fixture.json');
  // The embedded database's memory grows with the first reads and never shrinks: read every table
  // the sockets' authentication reads once, so RSS growth afterwards is mostly the sockets' and the hub's.
  for (const table of [
    'users',
    'bot_sessions',
    'user_grants',
    'whitelist_entries',
    'sessions',
    'user_roles',
  ]) {
    await db.execute(sql.raw(`select count(*) from ${table}`));
  }

  await app.listen({ port, host: '127.0.0.1' });

  const send = (message: TargetMessage) => process.send?.(message);
  process.on('message', (message: { type: string; gc?: boolean }) => {
    if (message.type === 'stats') {
      // CPU first: the collection below is the benchmark's, not the target's.
      const cpu = process.cpuUsage();
      const { active, idle } = performance.eventLoopUtilization();
      if (message.gc) (globalThis as { gc?: () => void }).gc?.();
      // At its open-file limit the process cannot open /proc to read its memory: reported as unknown.
      const memory = readMemory();
      void hubCounts(app).then((hub) =>
        send({
          type: 'stats',
          cpuMicros: cpu.user + cpu.system,
          rss: memory.rss,
          heapUsed: memory.heapUsed,
          eventLoop: { active, idle },
          hub,
          overloaded: contextOf(app).load.isOverloaded,
        }),
      );
    }
    if (message.type === 'stop') {
      void app
        .close()
        .then(() => rm(dataDir, { recursive: true, force: true }))
        .then(() => process.exit(0));
    }
  });
  send({ type: 'ready', port, fixtureFile });
}

function readMemory(): { rss: number; heapUsed: number } {
  try {
    return process.memoryUsage();
  } catch {
    return { rss: Number.NaN, heapUsed: getHeapStatistics().used_heap_size };
  }
}

/** What the hub turned away, as its metrics count it: each series by its labels. */
const HUB_COUNTERS = [
  'socket_handshakes_refused_total',
  'socket_refusals_total',
  'bot_reports_dropped_total',
  'bots_silent_closed_total',
  'bots_reaped_total',
];

async function hubCounts(app: FastifyInstance): Promise<Record<string, unknown>> {
  const { registry } = contextOf(app).metrics;
  const entries = await Promise.all(
    HUB_COUNTERS.map(async (name) => {
      const values = (await registry.getSingleMetric(name)?.get())?.values ?? [];
      return [name, values.map(({ labels, value }) => ({ ...labels, value }))] as const;
    }),
  );
  return Object.fromEntries(entries);
}

// Run as a forked target, not when imported for its seeding function.
if (process.send) {
  void main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
