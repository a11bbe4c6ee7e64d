import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { userGrants } from '../access/index.ts';
import { auditLog } from '../audit/index.ts';
import { orders } from './orders.table.ts';

/**
 * A paid order is one use case (docs/architecture.md, "A use case owns its effects"): the order,
 * the permissions it grants, its audit entry and the news that the buyer's permissions changed
 * commit together; no caller has anything left to do after it.
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
      name: 'Complet',
      priceCents: 1500,
      durationDays: 30,
      grants: ['can_useGathering', 'can_useTreasure'],
      whitelistSlots: 1,
    },
    staff.token,
  );
  packageId = created.body.data.id;
});
afterAll(() => server.close());

type Order = { id: string; number: string; status: string; endsAt: string | null };

async function checkout(customer: TestUser): Promise<Order> {
  return (await call<{ data: Order }>('POST', '/me/orders', { packageId }, customer.token)).body.data;
}

const pay = (customer: TestUser, order: Order) =>
  call<{ data: Order }>('POST', `/payments/sandbox/${order.id}/succeed`, undefined, customer.token);

const permissionsOf = async (customer: TestUser) =>
  (await call<{ data: string[] }>('GET', '/me/permissions', undefined, customer.token)).body.data;

const auditOf = (order: Order) =>
  server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'payment.paid'), eq(auditLog.targetId, order.id)));

describe('a paid order is one use case', () => {
  it('writes its audit entry naming the permissions it grants, read at once through the cache', async () => {
    const customer = await server.createUser();
    // Read once, so the permission cache holds the set from before the payment.
    expect(await permissionsOf(customer)).toEqual([]);
    const order = await checkout(customer);

    const paid = await pay(customer, order);

    expect(paid.status).toBe(200);
    expect((await permissionsOf(customer)).sort()).toEqual(['can_useGathering', 'can_useTreasure']);
    const entries = await auditOf(order);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: customer.user.id,
      actorUsername: customer.user.username,
      targetType: 'order',
      targetLabel: `${order.number} (${customer.user.username})`,
      after: {
        grants: ['can_useGathering', 'can_useTreasure'],
        endsAt: paid.body.data.endsAt,
      },
    });
  });

  it('grants nothing and stays payable when its audit entry cannot be written', async () => {
    const customer = await server.createUser();
    const order = await checkout(customer);
    const { db } = server.ctx;
    // A real failure of the audit insert, for this order only: the database refuses the row.
    await db.execute(
      sql.raw(`
      create or replace function refuse_paid_audit() returns trigger language plpgsql as $$
      begin
        if new.action = 'payment.paid' and new.target_id = '${order.id}' then
          raise exception 'audit refusé par le test';
        end if;
        return new;
      end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_paid_audit before insert on audit_log
        for each row execute function refuse_paid_audit()`),
    );
    try {
      expect((await pay(customer, order)).status).toBe(500);
    } finally {
      await db.execute(sql.raw('drop trigger refuse_paid_audit on audit_log'));
    }
    const [row] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(row?.status).toBe('pending');
    expect(await db.select().from(userGrants).where(eq(userGrants.sourceId, order.id))).toEqual([]);
    expect(await permissionsOf(customer)).toEqual([]);

    expect((await pay(customer, order)).status).toBe(200);
    expect(await auditOf(order)).toHaveLength(1);
  });
});
