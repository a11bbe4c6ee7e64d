/**
 * Commerce benchmark (issue 6): voucher redemption under contention and purchase throughput, on the
 * engine the run uses (PGlite by default, PostgreSQL with DATABASE_URL), each side by side with a
 * baseline in the same run.
 *
 * 1. Contention: C customers redeem at once a voucher limited to M uses.
 *    - ours: `createOrder` (conditional UPDATE holding the row lock, per-customer check, order row);
 *    - baseline: the naive "SELECT redemptions_count, then UPDATE +1 if below the limit" in a
 *      transaction (READ COMMITTED), the usual first attempt. Reports successes (must be M) and time.
 * 2. Purchases: N sandbox purchases (createOrder + fulfilOrder, grants written), run with 1 and with
 *    10 in flight; orders per second.
 *
 * Run: npm run bench:commerce [-- --customers 500] [--limit 50] [--purchases 300] [--no-write]
 *      DATABASE_URL=postgres://... npx tsx bench/commerce/run.ts
 */
import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { inTransaction } from '../../apps/server/src/context.ts';
import { newId } from '../../apps/server/src/core/ids.ts';
import { packages } from '../../apps/server/src/modules/catalog/index.ts';
import { createOrder, fulfilOrder } from '../../apps/server/src/modules/orders/index.ts';
import { users } from '../../apps/server/src/modules/users/index.ts';
import { vouchers } from '../../apps/server/src/modules/vouchers/index.ts';
import { startTestServer } from '../../apps/server/test/harness.ts';
import { compared, recordBenchmark } from '../shared.ts';

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '500' },
    limit: { type: 'string', default: '50' },
    purchases: { type: 'string', default: '300' },
    'no-write': { type: 'boolean', default: false },
  },
});
const CUSTOMERS = Number(values.customers);
const LIMIT = Number(values.limit);
const PURCHASES = Number(values.purchases);

const server = await startTestServer({ rateLimits: { voucherGuess: { max: 1_000_000, windowMs: 60_000 } } });
const { ctx } = server;
const engine = ctx.engine;

const packageId = newId();
await ctx.db.insert(packages).values({
  id: packageId,
  name: 'Bench',
  priceCents: 1000,
  durationDays: 30,
  grants: ['can_useGathering'],
  whitelistSlots: 1,
});

async function customers(count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, () => {
    const id = newId();
    return {
      id,
      username: `b_${id.slice(-12)}`,
      email: `b_${id.slice(-12)}@example.test`,
      passwordHash: 'x',
    };
  });
  for (let i = 0; i < rows.length; i += 500) await ctx.db.insert(users).values(rows.slice(i, i + 500));
  return rows.map((row) => row.id);
}

async function voucher(max: number): Promise<{ id: string; code: string }> {
  const id = newId();
  const code = `BENCH${id.replaceAll('-', '').slice(-11).toUpperCase()}`;
  await ctx.db.insert(vouchers).values({ id, code, kind: 'percent', percentOff: 10, maxRedemptions: max });
  return { id, code };
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

// 1. Contention
const ours = await (async () => {
  const ids = await customers(CUSTOMERS);
  const { code, id } = await voucher(LIMIT);
  const { result, ms } = await timed(() =>
    Promise.allSettled(
      ids.map((userId) => createOrder(ctx, { userId, packageId, voucherCode: code, ip: '10.0.0.1' })),
    ),
  );
  const [row] = await ctx.db.select().from(vouchers).where(eq(vouchers.id, id));
  return {
    successes: result.filter((r) => r.status === 'fulfilled').length,
    counter: row?.redemptionsCount,
    ms,
  };
})();

const naive = await (async () => {
  const ids = await customers(CUSTOMERS);
  const { id } = await voucher(LIMIT);
  const { result, ms } = await timed(() =>
    Promise.allSettled(
      ids.map(() =>
        ctx.db.transaction(async (tx) => {
          const [row] = await tx.select().from(vouchers).where(eq(vouchers.id, id));
          if (!row || (row.maxRedemptions !== null && row.redemptionsCount >= row.maxRedemptions))
            throw new Error('exhausted');
          await tx
            .update(vouchers)
            .set({ redemptionsCount: sql`${vouchers.redemptionsCount} + 1` })
            .where(eq(vouchers.id, id));
        }),
      ),
    ),
  );
  const [row] = await ctx.db.select().from(vouchers).where(eq(vouchers.id, id));
  return {
    successes: result.filter((r) => r.status === 'fulfilled').length,
    counter: row?.redemptionsCount,
    ms,
  };
})();

// 2. Purchases
async function purchases(inFlight: number): Promise<{ ms: number; perSecond: number }> {
  const ids = await customers(PURCHASES);
  let next = 0;
  const { ms } = await timed(() =>
    Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < ids.length) {
          const userId = ids[next++] as string;
          const order = await createOrder(ctx, { userId, packageId, ip: '10.0.0.2' });
          await inTransaction(ctx, (tx) => fulfilOrder(tx, { orderId: order.id, from: ['pending'] }));
        }
      }),
    ),
  );
  return { ms, perSecond: (PURCHASES / ms) * 1000 };
}
const sequential = await purchases(1);
const parallel = await purchases(10);
await server.close();

const f = (n: number) => n.toFixed(0);
const engineName = engine === 'postgres' ? 'PostgreSQL' : 'PGlite';
const section = [
  '## Commerce, last run',
  '',
  `Measured by \`npm run bench:commerce\` (\`bench/commerce/\`) on ${new Date().toISOString().slice(0, 16)}Z, ` +
    `${engineName}. Voucher limited to ${LIMIT} uses, ${CUSTOMERS} customers at once:`,
  '',
  '| strategy | successes | counter | time |',
  '|---|---|---|---|',
  `| conditional UPDATE + order (ours) | ${ours.successes} | ${ours.counter} | ${f(ours.ms)} ms |`,
  `| baseline: SELECT then UPDATE | ${naive.successes} | ${naive.counter} | ${f(naive.ms)} ms |`,
  '',
  `${PURCHASES} sandbox purchases (order + fulfilment with grants):`,
  '',
  '| in flight | time | orders/s |',
  '|---|---|---|',
  `| 1 | ${f(sequential.ms)} ms | ${f(sequential.perSecond)} |`,
  `| 10 | ${f(parallel.ms)} ms | ${f(parallel.perSecond)} |`,
  '',
].join('\n');
console.log(section);
if (!values['no-write']) {
  recordBenchmark({
    heading: '## Commerce, last run',
    section,
    key: 'commerce',
    figures: [
      {
        name: 'voucher redemptions granted',
        value: ours.successes,
        unit: 'orders',
        baseline: naive.successes,
        goal: `exactly ${LIMIT}`,
        met: ours.successes === LIMIT && ours.counter === LIMIT,
      },
      compared({ name: 'voucher contention time', value: ours.ms, unit: 'ms', baseline: naive.ms }),
      compared({
        name: 'purchases, 10 in flight',
        value: parallel.perSecond,
        unit: 'orders/s',
        baseline: sequential.perSecond,
      }),
    ],
    details: {
      engine: engineName,
      customers: CUSTOMERS,
      limit: LIMIT,
      purchases: PURCHASES,
      ours,
      naive,
      sequential,
      parallel,
    },
  });
}
process.exit(0);
