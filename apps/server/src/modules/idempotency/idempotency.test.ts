import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
  type TestUser,
} from '../../../test/harness.ts';
import { authenticatorCode } from '../../../test/helpers/two-factor.ts';
import { orders } from '../orders/index.ts';
import { idempotencyKeys } from './idempotency.table.ts';

/**
 * Security issue: two concurrent checkouts with the same Idempotency-Key created two orders. Runs on
 * PGlite and, in CI's second pass, on PostgreSQL, where the two requests really run at once.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let packageId: string;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  const staff = await server.createUser({ permissions: ['can_managePackages'] });
  const created = await call<{ data: { id: string } }>(
    'POST',
    '/admin/packages',
    {
      name: 'Idempotent',
      priceCents: 990,
      durationDays: 30,
      grants: ['can_useGathering'],
      whitelistSlots: 1,
    },
    staff.token,
  );
  packageId = created.body.data.id;
});
afterAll(() => server.close());

const checkout = (customer: TestUser, key?: string, body: Record<string, unknown> = { packageId }) =>
  call<{ data: { id: string } }>(
    'POST',
    '/me/orders',
    body,
    customer.token,
    key ? { 'idempotency-key': key } : {},
  );
const ordersOf = async (customer: TestUser) =>
  server.ctx.db.select().from(orders).where(eq(orders.userId, customer.user.id));

describe('Idempotency-Key', () => {
  it('two concurrent checkouts with one key make one order', async () => {
    const customer = await server.createUser();
    const answers = await Promise.all([checkout(customer, 'panier-42'), checkout(customer, 'panier-42')]);
    expect((await ordersOf(customer)).length).toBe(1);
    const statuses = answers.map((answer) => answer.status).sort();
    // The second either waited its turn and got the replay, or arrived while the first ran.
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    const created = answers.filter((answer) => answer.status === 201);
    expect(new Set(created.map((answer) => answer.body.data.id)).size).toBe(1);
  });

  it('a request whose answer could not be kept after its change committed never runs again', async () => {
    const customer = await server.createUser();
    const { db } = server.ctx;
    // The step between the use case's commit and the stored answer fails, as a node killed there
    // would leave it: the database refuses to keep this key's answer.
    await db.execute(
      sql.raw(`
      create or replace function refuse_kept_answer() returns trigger language plpgsql as $$
      begin
        if new.key = 'panier-coupure' and new.response_status is not null then
          raise exception 'réponse refusée par le test';
        end if;
        return new;
      end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_kept_answer before update on idempotency_keys
        for each row execute function refuse_kept_answer()`),
    );
    let first: Awaited<ReturnType<typeof checkout>>;
    try {
      first = await checkout(customer, 'panier-coupure');
    } finally {
      await db.execute(sql.raw('drop trigger refuse_kept_answer on idempotency_keys'));
    }
    // The order exists: the customer is told so, whatever happened to the copy of the answer.
    expect(first.status).toBe(201);
    expect(await ordersOf(customer)).toHaveLength(1);

    // A retry while the first might still run waits; long after, it is told the outcome is unknown
    // (check, then use a new key) rather than run a second time.
    expect((await checkout(customer, 'panier-coupure')).body).toMatchObject({
      code: 'IDEMPOTENCY_IN_PROGRESS',
    });
    await db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 600_000) })
      .where(eq(idempotencyKeys.key, 'panier-coupure'));
    const late = await checkout(customer, 'panier-coupure');
    expect(late).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_OUTCOME_UNKNOWN' } });
    expect(await ordersOf(customer)).toHaveLength(1);
    expect((await checkout(customer, 'panier-nouvelle-cle')).status).toBe(201);
  });

  it('replays the answer of a finished request, refuses the key with another body', async () => {
    const customer = await server.createUser();
    const first = await checkout(customer, 'cle-unique');
    const replay = await checkout(customer, 'cle-unique');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await checkout(customer, 'cle-unique', { packageId, voucherCode: 'AUTRE' })).toMatchObject({
      status: 422,
      body: { code: 'IDEMPOTENCY_KEY_REUSED' },
    });
    expect((await ordersOf(customer)).length).toBe(1);
    // Keys belong to their user: another customer's same key is a new request.
    const other = await server.createUser();
    expect((await checkout(other, 'cle-unique')).headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps no failed answer, and without a key each checkout is its own', async () => {
    const customer = await server.createUser();
    const refused = await checkout(customer, 'essai', { packageId: '0190f5a0-0000-7000-8000-000000000000' });
    expect(refused.status).toBe(409); // no such package on sale
    expect(
      (await checkout(customer, 'essai', { packageId: '0190f5a0-0000-7000-8000-000000000000' })).headers.get(
        'idempotent-replayed',
      ),
    ).toBeNull();
    await checkout(customer);
    await checkout(customer);
    expect((await ordersOf(customer)).length).toBe(2);
    expect((await checkout(customer, 'k'.repeat(300))).body).toMatchObject({
      code: 'IDEMPOTENCY_KEY_INVALID',
    });
  });
});

/** Everything the table holds, as text: a secret written anywhere in it shows up here. */
async function storedText(): Promise<string> {
  const rows = await server.ctx.db
    .select({ all: sql<string>`${idempotencyKeys}::text` })
    .from(idempotencyKeys);
  return rows.map((row) => row.all).join('\n');
}

describe('secret-bearing answers (issue 30)', () => {
  it('are never stored: those routes refuse a key, and a replay cannot skip the code check', async () => {
    const customer = await server.createUser();
    const withKey = (route: string, body?: object) =>
      call<{ data: Record<string, unknown> }>('POST', route, body, customer.token, {
        'idempotency-key': 'k-1',
      });
    const refused = { status: 400, body: { code: 'IDEMPOTENCY_NOT_ACCEPTED' } };
    const expectNotStored = async (...values: string[]) => {
      const stored = await storedText();
      for (const value of values) expect(stored).not.toContain(value);
    };
    // The grep sees what the table keeps: an ordinary answer replayed with its key is there.
    const order = await checkout(customer, 'panier-grep');
    expect(await storedText()).toContain(order.body.data.id);

    expect(await withKey('/me/two-factor/setup')).toMatchObject(refused);
    const setup = await call<{ data: { secret: string } }>(
      'POST',
      '/me/two-factor/setup',
      undefined,
      customer.token,
    );
    const { secret } = setup.body.data;
    await expectNotStored(secret);
    const enable = { password: TEST_PASSWORD, code: authenticatorCode(secret) };
    expect(await withKey('/me/two-factor/enable', enable)).toMatchObject(refused);
    const enabled = await call<{ data: { recoveryCodes: string[] } }>(
      'POST',
      '/me/two-factor/enable',
      enable,
      customer.token,
    );
    expect(enabled.status).toBe(200);
    await expectNotStored(secret, ...enabled.body.data.recoveryCodes);
    const renew = { password: TEST_PASSWORD, code: authenticatorCode(secret, 1) };
    expect(await withKey('/me/two-factor/recovery-codes', renew)).toMatchObject(refused);
    const renewed = await call<{ data: { recoveryCodes: string[] } }>(
      'POST',
      '/me/two-factor/recovery-codes',
      renew,
      customer.token,
    );
    expect(renewed.status).toBe(200);
    await expectNotStored(...renewed.body.data.recoveryCodes);
    expect(await withKey('/me/bot-key')).toMatchObject(refused);
    const rotated = await call<{ data: { accessKey: string } }>(
      'POST',
      '/me/bot-key',
      undefined,
      customer.token,
    );
    expect(rotated.status).toBe(200);

    const stored = await storedText();
    for (const value of [
      secret,
      rotated.body.data.accessKey,
      ...enabled.body.data.recoveryCodes,
      ...renewed.body.data.recoveryCodes,
    ]) {
      expect(stored).not.toContain(value);
    }
  });

  it('keys belong to one session: another session of the same user does not get the answer', async () => {
    const customer = await server.createUser();
    const first = await checkout(customer, 'panier-session');
    expect(first.status).toBe(201);
    const login = await call<{ token: string }>('POST', '/auth/login', {
      username: customer.user.username,
      password: customer.password,
    });
    const elsewhere = { ...customer, token: login.body.token };
    const second = await checkout(elsewhere, 'panier-session');
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.id).not.toBe(first.body.data.id);
  });
});
