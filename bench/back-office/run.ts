/**
 * Back-office benchmark (issues 7 and 14): the admin user list, the audit trail and the user CSV
 * export at size, each side by side with a baseline measured in the same run.
 *
 * Data: with `--seeded`, the configured database as `npm run seed:bench` left it (DATABASE_URL, or
 * DATA_DIR for PGlite; 100,000 users and 1,000,000 audit entries by default); without it, a fresh
 * database of its own (PGlite, or PostgreSQL with DATABASE_URL) seeded the same way with `--users`
 * users (20,000) and `--audit` entries (ten per user).
 *
 * 1. User list with a text search (`GET /admin/users?q=&sort=-createdAt&page=`: guard, page, total,
 *    roles, subscriptions, over HTTP) vs the bare `SELECT … LIMIT 25` it wraps (no HTTP): p50 / p95,
 *    requests taken in turn with their baseline, for a few characters of a name, an e-mail domain,
 *    every user (`bench_`, pages 1-40) and two characters matching nobody. Reference: the exact
 *    `count(*)` of each search (what every page paid before).
 * 2. Audit trail filtered by actor and a 30-day window (`GET /admin/audit?actor=&from=&to=`) vs its
 *    bare SELECT; the unfiltered trail's first pages likewise.
 * 3. CSV export of every user: ours, streamed, vs the one-query baseline (measure.ts): first byte,
 *    total, rows/s, heap growth.
 *
 * Run: npm run bench:back-office [-- --users 20000 --audit 200000 --requests 100]
 *      DATABASE_URL=postgres://… npm run seed:bench && DATABASE_URL=… npm run bench:back-office -- --seeded
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { and, count, desc, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import { likePattern } from '../../apps/server/src/core/admin-list.ts';
import { auditLog } from '../../apps/server/src/modules/audit/index.ts';
import { createSession } from '../../apps/server/src/modules/auth/index.ts';
import { users } from '../../apps/server/src/modules/users/index.ts';
import { startTestServer } from '../../apps/server/test/harness.ts';
import { compared, type Figure, recordBenchmark } from '../shared.ts';
import { download, type Spread, spreadOf, startOneQueryExport, timed } from './measure.ts';
import { BENCH_ADMIN, BENCH_USERS, STAFF, seedBackOffice } from './seed-data.ts';

const { values } = parseArgs({
  options: {
    seeded: { type: 'boolean', default: false },
    users: { type: 'string', default: '20000' },
    audit: { type: 'string' },
    requests: { type: 'string', default: '100' },
  },
});
const REQUESTS = Number(values.requests);
const GOAL_MS = 100;
const DAY_MS = 86_400_000;

const server = values.seeded
  ? await startTestServer({
      openDatabaseFromConfig: true,
      env: process.env.DATABASE_URL
        ? { DATABASE_URL: process.env.DATABASE_URL }
        : { DATA_DIR: path.resolve(process.env.DATA_DIR ?? 'data') },
    })
  : await startTestServer();
const { ctx } = server;
const { db } = ctx;
const engine = ctx.engine === 'postgres' ? 'PostgreSQL' : 'PGlite';
/** The first column of the first row (both engines answer `{ rows }`). */
const scalar = async (query: SQL) => {
  const { rows } = (await db.execute(query)) as { rows: Record<string, unknown>[] };
  return Number(Object.values(rows[0] ?? {})[0] ?? 0);
};

if (!values.seeded) {
  const seedUsers = Number(values.users);
  await seedBackOffice(db, { users: seedUsers, audit: Number(values.audit ?? seedUsers * 10) });
  await db.execute(sql.raw(ctx.engine === 'postgres' ? 'vacuum analyze' : 'analyze'));
}
const userCount = await scalar(sql`select count(*) from ${users}`);
const auditCount = await scalar(sql`select count(*) from ${auditLog}`);
const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.username, BENCH_ADMIN));
if (!admin) throw new Error(`${BENCH_ADMIN} absent : lancez d'abord npm run seed:bench`);
const { token } = await createSession(ctx, { userId: admin.id, ip: '127.0.0.1', userAgent: 'bench' });
const headers = { authorization: `Bearer ${token}` };

/** One list page over HTTP; answers its total and whether it is an estimate. */
async function getPage(route: string): Promise<{ total: number; totalIsEstimate?: boolean }> {
  const response = await fetch(`${server.api}${route}`, { headers });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { total: number; totalIsEstimate?: boolean };
}

interface Case {
  name: string;
  /** Our request and its bare query, taken in turn. */
  requests: { route: string; bare: () => Promise<unknown> }[];
  /** The exact count the total used to be (reference), when there is one. */
  count?: () => Promise<unknown>;
  goal: boolean;
}

interface Measured {
  name: string;
  ours: Spread;
  bare: Spread;
  countMs?: number;
  total: string;
  goal: boolean;
}

async function measure(testCase: Case): Promise<Measured> {
  const ours: number[] = [];
  const bare: number[] = [];
  let total = '';
  for (const [i, request] of testCase.requests.entries()) {
    const start = performance.now();
    const page = await getPage(request.route);
    ours.push(performance.now() - start);
    if (i === 0) total = `${page.total.toLocaleString('en-US')}${page.totalIsEstimate ? ' (estimate)' : ''}`;
    bare.push(await timed(request.bare));
  }
  const counts: number[] = [];
  if (testCase.count) for (let i = 0; i < 3; i += 1) counts.push(await timed(testCase.count));
  return {
    name: testCase.name,
    ours: spreadOf(ours),
    bare: spreadOf(bare),
    countMs: counts.length ? spreadOf(counts).p50 : undefined,
    total,
    goal: testCase.goal,
  };
}

const searchOf = (q: string) => {
  const pattern = likePattern(q);
  return or(
    ilike(users.username, pattern),
    ilike(users.email, pattern),
    ilike(users.discordId, pattern),
    ilike(users.hwid, pattern),
  );
};
const userPage = (q: string, page: number) => ({
  route: `/admin/users?q=${encodeURIComponent(q)}&sort=-createdAt&page=${page}&pageSize=25`,
  bare: () =>
    db
      .select()
      .from(users)
      .where(searchOf(q))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(25)
      .offset((page - 1) * 25),
});
const countUsers = (q: string) => () => db.select({ n: count() }).from(users).where(searchOf(q));
const cycle = <T>(items: T[], length: number) => Array.from({ length }, (_, i) => items[i % items.length]!);

// The last seven characters of twenty users' names ("bench_Camille5007" gives "ille5007"), every
// other one upper-cased: each matches a handful of users, by name and e-mail.
const step = Math.max(1, Math.floor(userCount / 20));
const names = await db.execute(
  sql.raw(`
  select right(username, 7) as term from (
    select username, row_number() over (order by created_at, id) as n from users where ${BENCH_USERS}
  ) as s where n > ${STAFF} and n % ${step} = 7 limit 20`),
);
const terms = (names as unknown as { rows: { term: string }[] }).rows.map((row, i) =>
  i % 2 ? row.term.toUpperCase() : row.term,
);
const pages = Array.from({ length: 40 }, (_, i) => i + 1);

const staff = Array.from({ length: STAFF }, (_, i) => `bench_staff${String(i + 1).padStart(2, '0')}`);
const now = Date.now();
const auditRequests = Array.from({ length: REQUESTS }, (_, i) => {
  const actor = staff[(i * 7) % STAFF]!;
  const from = new Date(now - (30 + ((i * 37) % 300)) * DAY_MS);
  const to = new Date(from.getTime() + 30 * DAY_MS);
  const page = 1 + (i % 3);
  return {
    route: `/admin/audit?actor=${actor}&from=${from.toISOString()}&to=${to.toISOString()}&sort=-at&page=${page}`,
    bare: () =>
      db
        .select()
        .from(auditLog)
        .where(
          and(
            sql`lower(${auditLog.actorUsername}) = lower(${actor})`,
            gte(auditLog.at, from),
            lte(auditLog.at, to),
          ),
        )
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(25)
        .offset((page - 1) * 25),
  };
});

const cases: Case[] = [
  {
    name: 'users: the end of a name (`lle5007`, `SE10007`…)',
    requests: cycle(terms, REQUESTS).map((q) => userPage(q, 1)),
    count: countUsers(terms[0] ?? 'x'),
    goal: true,
  },
  {
    name: 'users: an e-mail domain (`exemple.test`, a fifth), pages 1-40',
    requests: cycle(pages, REQUESTS).map((page) => userPage('exemple.test', page)),
    count: countUsers('exemple.test'),
    goal: true,
  },
  {
    name: 'users: `bench_` (every user), pages 1-40',
    requests: cycle(pages, REQUESTS).map((page) => userPage('bench_', page)),
    count: countUsers('bench_'),
    goal: true,
  },
  {
    name: 'users: two characters matching nobody (`zq`)',
    requests: cycle([1], Math.max(5, Math.round(REQUESTS / 5))).map((page) => userPage('zq', page)),
    count: countUsers('zq'),
    goal: false,
  },
  {
    name: 'audit: one actor, a 30-day window, pages 1-3',
    requests: auditRequests,
    goal: true,
  },
  {
    name: 'audit: no filter, pages 1-5',
    requests: cycle([1, 2, 3, 4, 5], Math.max(5, Math.round(REQUESTS / 2))).map((page) => ({
      route: `/admin/audit?sort=-at&page=${page}`,
      bare: () =>
        db
          .select()
          .from(auditLog)
          .orderBy(desc(auditLog.at), desc(auditLog.id))
          .limit(25)
          .offset((page - 1) * 25),
    })),
    count: () => db.select({ n: count() }).from(auditLog),
    goal: false,
  },
];

const measured: Measured[] = [];
for (const testCase of cases) {
  await measure({ ...testCase, requests: testCase.requests.slice(0, 3), count: undefined }); // warm-up
  measured.push(await measure(testCase));
  console.log(JSON.stringify(measured.at(-1)));
}

// Export: each once to warm up, then once measured, in turn.
const oneQuery = await startOneQueryExport(db);
const exportUrl = `${server.api}/admin/users/export.csv`;
await download(exportUrl, headers);
await download(`${oneQuery.url}/full.csv`, {});
await download(`${oneQuery.url}/full-lines.csv`, {});
await download(`${oneQuery.url}/users.csv`, {});
const ours = await download(exportUrl, headers);
const baseline = await download(`${oneQuery.url}/full.csv`, {});
const sameFormatter = await download(`${oneQuery.url}/full-lines.csv`, {});
const usersOnly = await download(`${oneQuery.url}/users.csv`, {});
await oneQuery.close();
await server.close();

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const met = (row: Measured) => (row.goal ? (row.ours.p95 <= GOAL_MS ? 'met' : 'misses') : '');
const listTable = measured
  .map(
    (row) =>
      `| ${row.name} | ${row.total} | ${fmt(row.ours.p50)} ms | **${fmt(row.ours.p95)} ms** | ${fmt(row.bare.p50)} ms | ${fmt(row.bare.p95)} ms | ${fmt(row.ours.p95 / row.bare.p95)} | ${row.countMs === undefined ? '–' : `${fmt(row.countMs)} ms`} | ${met(row)} |`,
  )
  .join('\n');
const exportRow = (name: string, m: typeof ours) =>
  `| ${name} | ${m.rows.toLocaleString('en-US')} | ${fmt(m.firstByteMs, 0)} ms | ${fmt(m.totalMs, 0)} ms | ${fmt(m.rowsPerSecond, 0)} | ${fmt(m.heapMb)} MB |`;
const measuredAt = new Date().toISOString();
const section = `## Back office

Measured by \`npm run bench:back-office${values.seeded ? ' -- --seeded' : ''}\` (\`bench/back-office/\`) on ${measuredAt.slice(0, 16)}Z, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${engine}: ${userCount.toLocaleString('en-US')} users, ${auditCount.toLocaleString('en-US')} audit entries (\`npm run seed:bench\`'s data set). Client and server in one process, requests one at a time; each request is followed by its bare query. Goals: p95 ≤ ${GOAL_MS} ms for a list page with a text search of 3 characters or more and for the audit trail filtered by actor and date; the export at least as fast (rows/s) as the one-query baseline.

| list page (25 rows, over HTTP) | total answered | p50 | p95 | bare query p50 | bare query p95 | p95 ratio | exact \`count(*)\` | goal |
|---|---|---|---|---|---|---|---|---|
${listTable}

| CSV export of every user | rows | first byte | total | rows/s | heap growth |
|---|---|---|---|---|---|
${exportRow('**ours: streamed, keyset pages**', ours)}
${exportRow('baseline: one SELECT (roles and subscriptions joined), CSV built in memory, then sent', baseline)}
${exportRow('reference: the same one SELECT, CSV by our formatter (`csvLines`)', sameFormatter)}
${exportRow('reference: one SELECT of the users table alone, csv-stringify (issue 7 baseline)', usersOnly)}

Export ratio (ours / baseline): total time ${fmt(ours.totalMs / baseline.totalMs, 2)}, rows/s ${fmt(ours.rowsPerSecond / baseline.rowsPerSecond, 2)}, first byte ${fmt(ours.firstByteMs / baseline.firstByteMs, 3)} (goal: rows/s ratio ≥ 1, ${ours.rowsPerSecond >= baseline.rowsPerSecond ? 'met' : 'misses'}). Against the same SELECT formatted by \`csvLines\`: rows/s ratio ${fmt(ours.rowsPerSecond / sameFormatter.rowsPerSecond, 2)}.
`;
console.log(section);

const figures: Figure[] = measured.flatMap((row) => [
  compared({ name: `${row.name}: p50`, value: row.ours.p50, unit: 'ms', baseline: row.bare.p50 }),
  {
    ...compared({ name: `${row.name}: p95`, value: row.ours.p95, unit: 'ms', baseline: row.bare.p95 }),
    ...(row.goal ? { goal: `≤ ${GOAL_MS} ms`, met: row.ours.p95 <= GOAL_MS } : {}),
  },
]);
figures.push(
  compared({
    name: 'export: first byte',
    value: ours.firstByteMs,
    unit: 'ms',
    baseline: baseline.firstByteMs,
  }),
  compared({ name: 'export: total', value: ours.totalMs, unit: 'ms', baseline: baseline.totalMs }),
  {
    ...compared({
      name: 'export: rows/s',
      value: ours.rowsPerSecond,
      unit: 'rows/s',
      baseline: baseline.rowsPerSecond,
    }),
    goal: 'ratio ≥ 1',
    met: ours.rowsPerSecond >= baseline.rowsPerSecond,
  },
  compared({
    name: 'export: rows/s against one SELECT formatted by csvLines',
    value: ours.rowsPerSecond,
    unit: 'rows/s',
    baseline: sameFormatter.rowsPerSecond,
  }),
);
recordBenchmark({
  heading: '## Back office',
  section,
  key: 'backOffice',
  figures,
  details: {
    engine,
    seeded: values.seeded,
    users: userCount,
    auditEntries: auditCount,
    lists: measured,
    export: { ours, baseline, sameFormatter, usersOnly },
  },
});
