/**
 * Back-office benchmark (issue 7): the admin user list and its CSV export on a large table, each
 * side by side with a baseline in the same run, on the engine the run uses (PGlite by default,
 * PostgreSQL with DATABASE_URL).
 *
 * 1. CSV export of N users (roles and bot subscriptions included):
 *    - ours: `GET /api/admin/users/export.csv`, streamed page by page (1,000 rows per query);
 *    - baseline: the usual first attempt, one SELECT of every row, the whole CSV built in memory
 *      (csv-stringify/sync), then sent. Reports time to first byte, total time and heap growth.
 * 2. One list page (`GET /api/admin/users?q=&sort=&page=`, roles, subscriptions, total) vs the bare
 *    `SELECT … LIMIT 25` it wraps: p50 / p95 over R requests.
 *
 * Run: npx tsx bench/back-office/run.ts [--users 20000] [--requests 100]
 *      DATABASE_URL=postgres://... npx tsx bench/back-office/run.ts
 */
import { parseArgs } from 'node:util';
import { stringify } from 'csv-stringify/sync';
import { desc, ilike } from 'drizzle-orm';
import { newId } from '../../apps/server/src/core/ids.ts';
import { grantPermission } from '../../apps/server/src/modules/access/access.service.ts';
import { roles, userRoles } from '../../apps/server/src/modules/roles/roles.table.ts';
import { users } from '../../apps/server/src/modules/users/users.table.ts';
import { startTestServer } from '../../apps/server/test/harness.ts';

const { values } = parseArgs({
  options: { users: { type: 'string', default: '20000' }, requests: { type: 'string', default: '100' } },
});
const USERS = Number(values.users);
const REQUESTS = Number(values.requests);

const server = await startTestServer();
const { ctx } = server.app;
const admin = await server.createUser({ isAdministrator: true });

// N users; one in ten has a role, one in five a bot subscription.
const roleId = newId();
await ctx.db.insert(roles).values({ id: roleId, name: 'Bench' });
const ids: string[] = [];
for (let i = 0; i < USERS; i += 1000) {
  const batch = Array.from({ length: Math.min(1000, USERS - i) }, (_, j) => {
    const id = newId();
    ids.push(id);
    return {
      id,
      username: `bench_${i + j}`,
      email: `bench_${i + j}@example.test`,
      passwordHash: 'x',
      activatedAt: new Date(),
    };
  });
  await ctx.db.insert(users).values(batch);
}
const withRole = ids.filter((_, i) => i % 10 === 0);
for (let i = 0; i < withRole.length; i += 1000)
  await ctx.db.insert(userRoles).values(withRole.slice(i, i + 1000).map((userId) => ({ userId, roleId })));
for (const [i, userId] of ids.entries()) {
  if (i % 5 !== 0) continue;
  await grantPermission(ctx.db, {
    id: newId(),
    userId,
    permission: 'can_useGathering',
    expiresAt: new Date(Date.now() + 30 * 86_400_000),
    source: 'order',
  });
}

const heapMb = () => process.memoryUsage().heapUsed / 1_048_576;
const gc = (globalThis as { gc?: () => void }).gc;

async function measureExport(): Promise<{
  firstByteMs: number;
  totalMs: number;
  rows: number;
  heapMb: number;
}> {
  gc?.();
  const heapBefore = heapMb();
  let peak = heapBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, heapMb());
  }, 5);
  const start = performance.now();
  const response = await fetch(`${server.api}/admin/users/export.csv?q=bench_`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  const reader = response.body!.getReader();
  let firstByteMs = 0;
  let newlines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByteMs) firstByteMs = performance.now() - start;
    for (const byte of value) if (byte === 10) newlines += 1;
  }
  const totalMs = performance.now() - start;
  clearInterval(sampler);
  return { firstByteMs, totalMs, rows: newlines - 1, heapMb: peak - heapBefore };
}

async function measureBaseline(): Promise<{
  firstByteMs: number;
  totalMs: number;
  rows: number;
  heapMb: number;
}> {
  gc?.();
  const heapBefore = heapMb();
  const start = performance.now();
  const rows = await ctx.db
    .select()
    .from(users)
    .where(ilike(users.username, '%bench_%'))
    .orderBy(desc(users.createdAt));
  const csv = stringify(
    rows.map((row) => [
      row.id,
      row.username,
      row.email,
      row.activatedAt ? 'oui' : 'non',
      row.hwid ?? '',
      row.createdAt.toISOString(),
    ]),
    { header: true, columns: ['id', 'username', 'email', 'activated', 'hwid', 'createdAt'] },
  );
  const peak = heapMb();
  const totalMs = performance.now() - start;
  return { firstByteMs: totalMs, totalMs, rows: csv.split('\n').length - 2, heapMb: peak - heapBefore };
}

const percentile = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function measureListPage(): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const page = 1 + (i % 40);
    const start = performance.now();
    const response = await fetch(
      `${server.api}/admin/users?q=bench_&sort=-createdAt&page=${page}&pageSize=25`,
      {
        headers: { authorization: `Bearer ${admin.token}` },
      },
    );
    await response.json();
    samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

async function measureBareSelect(): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const start = performance.now();
    await ctx.db
      .select()
      .from(users)
      .where(ilike(users.username, '%bench_%'))
      .orderBy(desc(users.createdAt))
      .limit(25)
      .offset((i % 40) * 25);
    samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

await measureExport(); // warm-up
const ours = await measureExport();
const baseline = await measureBaseline();
const list = await measureListPage();
const bare = await measureBareSelect();
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

console.log(
  `engine: ${ctx.engine}, users: ${USERS}, heap sampling ${gc ? 'after gc' : 'without --expose-gc'}`,
);
console.log('| export | rows | first byte | total | rows/s | heap growth |');
console.log('|---|---|---|---|---|---|');
for (const [name, m] of [
  ['ours: streamed, 1,000 rows per query', ours],
  ['baseline: one SELECT, CSV built in memory', baseline],
] as const) {
  console.log(
    `| ${name} | ${m.rows} | ${fmt(m.firstByteMs)} ms | ${fmt(m.totalMs)} ms | ${fmt((m.rows / m.totalMs) * 1000)} | ${fmt(m.heapMb)} MB |`,
  );
}
console.log('| list page | p50 | p95 |');
console.log('|---|---|---|');
console.log(
  `| ours: GET /admin/users (roles, subscriptions, total, HTTP) | ${fmt(list.p50)} ms | ${fmt(list.p95)} ms |`,
);
console.log(`| baseline: bare SELECT … LIMIT 25 (no HTTP) | ${fmt(bare.p50)} ms | ${fmt(bare.p95)} ms |`);
await server.close();
