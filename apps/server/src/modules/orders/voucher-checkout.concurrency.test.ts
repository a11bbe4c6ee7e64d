import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { isAppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { packages } from '../catalog/index.ts';
import { users } from '../users/index.ts';
import { voucherRedemptions, vouchers } from '../vouchers/index.ts';
import { createOrder } from './orders.service.ts';

/**
 * Many customers redeem one voucher at the same instant. On PGlite the engine runs one session at a
 * time, so this mostly checks the logic; on PostgreSQL (DATABASE_URL, `.ci/run`) the transactions
 * really overlap and the row lock of the conditional increment is what keeps the count exact.
 */
let server: TestServer;
/** A checkout replaces the customer's pending one of the same package: three to hold several at once. */
const packageIds = [newId(), newId(), newId()];
const packageId = packageIds[0] as string;

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { voucherGuess: { max: 100_000, windowMs: 60_000 } } });
  await server.ctx.db.insert(packages).values(
    packageIds.map((id, i) => ({
      id,
      name: `Récolte ${i}`,
      priceCents: 1000,
      durationDays: 30,
      grants: ['can_useGathering' as const],
      whitelistSlots: 1,
    })),
  );
});
afterAll(() => server.close());

/** Customers straight in the table: argon2 hashing 200 passwords would only slow the test down. */
async function customers(count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => {
    const id = newId();
    return {
      id,
      username: `rush_${id.slice(-12)}_${i}`,
      email: `rush_${id.slice(-12)}_${i}@example.test`,
      passwordHash: 'x',
    };
  });
  await server.ctx.db.insert(users).values(rows);
  return rows.map((row) => row.id);
}

async function voucher(input: {
  maxRedemptions: number | null;
  perCustomerLimit?: number | null;
  percentOff?: number;
}) {
  const id = newId();
  const code = `RUSH${id.replaceAll('-', '').slice(-12).toUpperCase()}`;
  await server.ctx.db.insert(vouchers).values({
    id,
    code,
    kind: 'percent',
    percentOff: input.percentOff ?? 50,
    maxRedemptions: input.maxRedemptions,
    perCustomerLimit: input.perCustomerLimit ?? null,
  });
  return { id, code };
}

async function rush(userIds: string[], code: string, packageOf = (_attempt: number) => packageId) {
  const results = await Promise.allSettled(
    userIds.map((userId, attempt) =>
      createOrder(server.ctx, {
        userId,
        packageId: packageOf(attempt),
        voucherCode: code,
        ip: '10.0.0.1',
      }),
    ),
  );
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  for (const failure of failures) {
    // Every refusal is the business answer, never a deadlock or a serialisation error.
    expect(isAppError(failure) ? failure.code : String(failure)).toMatch(
      /^VOUCHER_(EXHAUSTED|CUSTOMER_LIMIT)$/,
    );
  }
  return results.filter((result) => result.status === 'fulfilled').length;
}

async function countOf(voucherId: string) {
  const [row] = await server.ctx.db.select().from(vouchers).where(eq(vouchers.id, voucherId));
  const redemptions = await server.ctx.db
    .select()
    .from(voucherRedemptions)
    .where(eq(voucherRedemptions.voucherId, voucherId));
  return { counter: row?.redemptionsCount, rows: redemptions.length };
}

describe(`voucher redemptions under concurrency (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('100 concurrent redemptions of a single-use voucher: exactly 1 succeeds', async () => {
    const { id, code } = await voucher({ maxRedemptions: 1 });
    expect(await rush(await customers(100), code)).toBe(1);
    expect(await countOf(id)).toEqual({ counter: 1, rows: 1 });
  }, 120_000);

  it('200 concurrent redemptions of a 10-use voucher: exactly 10 succeed', async () => {
    const { id, code } = await voucher({ maxRedemptions: 10 });
    expect(await rush(await customers(200), code)).toBe(10);
    expect(await countOf(id)).toEqual({ counter: 10, rows: 10 });
  }, 120_000);

  it('one customer trying 50 times at once a free-of-charge voucher limited to 2 per customer: exactly 2', async () => {
    // 100 % off: each order is paid at once, so each use stays (a pending checkout would be replaced).
    const { id, code } = await voucher({ maxRedemptions: null, perCustomerLimit: 2, percentOff: 100 });
    const [customer] = await customers(1);
    expect(await rush(Array(50).fill(customer), code)).toBe(2);
    expect(await countOf(id)).toEqual({ counter: 2, rows: 2 });
  }, 120_000);

  it('one customer checking out 30 times at once with a voucher: one checkout left, one use held', async () => {
    const { id, code } = await voucher({ maxRedemptions: null, perCustomerLimit: 1 });
    const [customer] = await customers(1);
    // Each checkout replaces the pending one (giving its use back first) under the customer's lock.
    expect(await rush(Array(30).fill(customer), code, (attempt) => packageIds[attempt % 3] as string)).toBe(
      30,
    );
    expect(await countOf(id)).toEqual({ counter: 1, rows: 1 });
  }, 120_000);
});
