import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botActivityMinutes } from '../src/modules/bots/index.ts';
import { orders } from '../src/modules/orders/index.ts';
import { users } from '../src/modules/users/index.ts';
import { apiClient, startTestServer, type TestServer } from './harness.ts';
import { ManualClock } from './helpers/manual-clock.ts';

const HOUR_MS = 3_600_000;
/**
 * The app's clock, standing one second before an hour turns, ten days ago: the rows are placed and
 * the hours asked about by this clock alone. On the wall clock the hour could turn between placing
 * and asking, and a window the server took from the wall clock would miss every row.
 */
const clock = new ManualClock(Math.ceil((Date.now() - 10 * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS - 1_000);

let server: TestServer;
let call: ReturnType<typeof apiClient>;
beforeAll(async () => {
  server = await startTestServer({ clock });
  call = apiClient(server);
});
afterAll(() => server.close());

/** The start of the hour `hoursAgo` hours before the clock's, as the series names it. */
const hourStart = (hoursAgo: number) =>
  new Date((Math.floor(clock.now() / HOUR_MS) - hoursAgo) * HOUR_MS).toISOString();
type Series = { data: { hour: string; value: number }[] };

describe('the dashboard charts (one point per hour, empty hours left out)', () => {
  it('counts the accounts created per hour over the window asked, for can_manageUsers only', async () => {
    const staff = await server.createUser({ permissions: ['can_manageUsers'] });
    const created = await Promise.all([1, 2, 3, 4].map(() => server.createUser()));
    const at = (hoursAgo: number) => new Date(Date.parse(hourStart(hoursAgo)) + 5 * 60_000);
    const placements = [at(3), at(3), at(30), at(24 * 40)];
    for (const [index, { user }] of created.entries()) {
      await server.ctx.db.update(users).set({ createdAt: placements[index] }).where(eq(users.id, user.id));
    }
    // Everyone else (the staff member) was created in the current hour.
    await server.ctx.db
      .update(users)
      .set({ createdAt: at(0) })
      .where(eq(users.id, staff.user.id));

    const twoDays = await call<Series>('GET', '/admin/users/registrations?days=2', undefined, staff.token);
    expect(twoDays.status).toBe(200);
    const byHour = new Map(twoDays.body.data.map((point) => [point.hour, point.value]));
    expect(byHour.get(hourStart(3))).toBe(2);
    expect(byHour.get(hourStart(30))).toBe(1);
    expect(byHour.has(hourStart(24 * 40))).toBe(false); // outside the window
    expect(twoDays.body.data.every((point) => point.value > 0)).toBe(true);
    const hours = twoDays.body.data.map((point) => point.hour);
    expect([...hours].sort()).toEqual(hours);

    const sixtyDays = await call<Series>('GET', '/admin/users/registrations?days=60', undefined, staff.token);
    expect(sixtyDays.body.data.some((point) => point.hour === hourStart(24 * 40))).toBe(true);

    const customer = await server.createUser();
    expect((await call('GET', '/admin/users/registrations', undefined, customer.token)).status).toBe(403);
    expect((await call('GET', '/admin/users/registrations?days=400', undefined, staff.token)).status).toBe(
      400,
    );
  });

  it('sums the money of the orders paid per hour, refunded and unpaid ones left out', async () => {
    const staff = await server.createUser({ permissions: ['can_manageSettings', 'can_managePackages'] });
    const pkg = await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      { name: 'Récolte', priceCents: 990, durationDays: 30, grants: ['can_useGathering'], whitelistSlots: 1 },
      staff.token,
    );
    const buyer = await server.createUser();
    const ids: string[] = [];
    for (const outcome of ['succeed', 'succeed', 'succeed', 'fail'] as const) {
      const started = await call<{ data: { id: string } }>(
        'POST',
        '/me/orders',
        { packageId: pkg.body.data.id },
        buyer.token,
      );
      await call('POST', `/payments/sandbox/${started.body.data.id}/${outcome}`, undefined, buyer.token);
      ids.push(started.body.data.id);
    }
    const [first, second, third] = ids as [string, string, string];
    await server.ctx.db
      .update(orders)
      .set({ paidAt: new Date(hourStart(5)) })
      .where(eq(orders.id, first));
    await server.ctx.db
      .update(orders)
      .set({ paidAt: new Date(hourStart(5)) })
      .where(eq(orders.id, second));
    await server.ctx.db
      .update(orders)
      .set({ paidAt: new Date(hourStart(5)), status: 'refunded' })
      .where(eq(orders.id, third));

    const sales = await call<Series>('GET', '/admin/payments/sales?days=1', undefined, staff.token);
    expect(sales.status).toBe(200);
    expect(sales.body.data.find((point) => point.hour === hourStart(5))?.value).toBe(2 * 990);
    const customer = await server.createUser();
    expect((await call('GET', '/admin/payments/sales', undefined, customer.token)).status).toBe(403);
  });

  it('counts each bot once per hour it reported in, for can_manageMap only', async () => {
    const staff = await server.createUser({ permissions: ['can_manageMap'] });
    const owner = await server.createUser();
    const minute = (hoursAgo: number, minutes: number) =>
      new Date(Date.parse(hourStart(hoursAgo)) + minutes * 60_000);
    const row = (hwid: string, account: string, at: Date) => ({
      userId: owner.user.id,
      hwid,
      account,
      minute: at,
      reports: 3,
    });
    await server.ctx.db.insert(botActivityMinutes).values([
      row('HW-A', 'a1', minute(2, 1)),
      row('HW-A', 'a2', minute(2, 1)), // same bot, another account
      row('HW-A', 'a1', minute(2, 7)), // same bot, later minute
      row('HW-B', 'b1', minute(2, 30)),
      row('HW-B', 'b1', minute(1, 0)),
    ]);
    const history = await call<Series>('GET', '/admin/bots/online-history?days=1', undefined, staff.token);
    expect(history.status).toBe(200);
    const byHour = new Map(history.body.data.map((point) => [point.hour, point.value]));
    expect(byHour.get(hourStart(2))).toBe(2);
    expect(byHour.get(hourStart(1))).toBe(1);
    expect((await call('GET', '/admin/bots/online-history', undefined, owner.token)).status).toBe(403);
    await server.ctx.db.delete(botActivityMinutes).where(inArray(botActivityMinutes.hwid, ['HW-A', 'HW-B']));
  });
});
