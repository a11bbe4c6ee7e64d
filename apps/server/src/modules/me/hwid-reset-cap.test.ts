import type { HwidResetAllowance } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { updateSettings } from '../settings/index.ts';
import { users } from '../users/index.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const SYSTEM = { id: null, username: 'test', ip: null };

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  // The cooldown is its own rule (me.routes.test.ts): off here, so only the cap counts.
  await updateSettings(server.ctx, { patch: { hwidResetCooldownHours: 0 }, actor: SYSTEM });
});
afterAll(() => server.close());

let pcs = 0;
const bindPc = (userId: string) =>
  server.ctx.db
    .update(users)
    .set({ hwid: `HWID-CAP-${Date.now()}-${++pcs}` })
    .where(eq(users.id, userId));

const allowanceOf = async (token: string) =>
  (await call<{ data: HwidResetAllowance }>('GET', '/me/hwid-resets', undefined, token)).body.data;

it('with no unbind used, the next one is possible now (not at the epoch plus the cooldown)', async () => {
  await updateSettings(server.ctx, { patch: { hwidResetCooldownHours: 24 }, actor: SYSTEM });
  try {
    const customer = await server.createUser();
    const before = Date.now();
    const { nextResetAt } = await allowanceOf(customer.token);
    expect(Date.parse(nextResetAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(nextResetAt)).toBeLessThanOrEqual(Date.now() + 1000);
  } finally {
    await updateSettings(server.ctx, { patch: { hwidResetCooldownHours: 0 }, actor: SYSTEM });
  }
});

it('counts self-service unbinds over 30 days: shown before use, the fourth refused, staff not counted', async () => {
  const customer = await server.createUser();
  const staff = await server.createUser({ permissions: ['can_manageUsers'] });
  expect(await allowanceOf(customer.token)).toMatchObject({
    limit: 3,
    used: 0,
    remaining: 3,
    windowDays: 30,
  });

  for (const remaining of [2, 1, 0]) {
    await bindPc(customer.user.id);
    const reset = await call<{ resets: HwidResetAllowance; nextResetAt: string }>(
      'DELETE',
      '/me/hwid',
      undefined,
      customer.token,
    );
    expect(reset).toMatchObject({ status: 200, body: { resets: { remaining, limit: 3 } } });
    expect(reset.body.nextResetAt).toBe(reset.body.resets.nextResetAt);
    expect((await allowanceOf(customer.token)).remaining).toBe(remaining);
  }

  await bindPc(customer.user.id);
  const fourth = await call<{ code: string; error: string }>('DELETE', '/me/hwid', undefined, customer.token);
  expect(fourth).toMatchObject({ status: 429, body: { code: 'HWID_RESET_LIMIT' } });
  expect(fourth.body.error).toContain('3 fois sur 30 jours');
  expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(29 * 86_400);
  const info = await call<{ data: { hwid: string | null } }>('GET', '/me/info', undefined, customer.token);
  expect(info.body.data.hwid).not.toBeNull(); // still bound

  // Staff override: their reset goes through, audited as theirs, and does not count.
  const byStaff = await call('DELETE', `/admin/users/${customer.user.id}/hwid`, undefined, staff.token);
  expect(byStaff.status).toBe(200);
  const none = await allowanceOf(customer.token);
  expect(none).toMatchObject({ used: 3, remaining: 0 });
  // With none left, the next unbind is told for when the first one leaves the 30 days, not "now".
  expect(new Date(none.nextResetAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  expect(new Date(none.nextResetAt).getTime()).toBeCloseTo(
    Date.now() + Number(fourth.headers.get('retry-after')) * 1000,
    -5,
  );
});

it('follows the hwidResetsPerMonth setting', async () => {
  await updateSettings(server.ctx, { patch: { hwidResetsPerMonth: 1 }, actor: SYSTEM });
  try {
    const customer = await server.createUser();
    expect(await allowanceOf(customer.token)).toMatchObject({ limit: 1, remaining: 1 });
    await bindPc(customer.user.id);
    expect((await call('DELETE', '/me/hwid', undefined, customer.token)).status).toBe(200);
    await bindPc(customer.user.id);
    expect(await call('DELETE', '/me/hwid', undefined, customer.token)).toMatchObject({
      status: 429,
      body: { code: 'HWID_RESET_LIMIT' },
    });
  } finally {
    await updateSettings(server.ctx, { patch: { hwidResetsPerMonth: 3 }, actor: SYSTEM });
  }
});
