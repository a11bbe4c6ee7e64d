import { DEFAULT_ALERT_PREFERENCES, type NotificationsAnswer } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { evaluateAlerts } from './alert-evaluator.ts';

const DAY_MS = 86_400_000;
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let packageId: string;

beforeAll(async () => {
  server = await startTestServer({ alerts: { evaluateEveryMs: 3_600_000 } });
  call = apiClient(server);
  const staff = await server.createUser({ permissions: ['can_managePackages'] });
  const created = await call<{ data: { id: string } }>(
    'POST',
    '/admin/packages',
    { name: 'Récolte', priceCents: 1000, durationDays: 30, grants: ['can_useGathering'], whitelistSlots: 2 },
    staff.token,
  );
  packageId = created.body.data.id;
});
afterAll(() => server.close());

async function buy(customer: TestUser, action: 'succeed' | 'fail') {
  const order = await call<{ data: { id: string } }>('POST', '/me/orders', { packageId }, customer.token);
  const paid = await call(
    'POST',
    `/payments/sandbox/${order.body.data.id}/${action}`,
    undefined,
    customer.token,
  );
  expect(paid.status).toBe(200);
}

const titles = async (customer: TestUser) =>
  (await call<NotificationsAnswer>('GET', '/me/notifications', undefined, customer.token)).body.data.map(
    (entry) => `${entry.kind}: ${entry.title}`,
  );

describe('alerts about the account', () => {
  it('tells each payment once, succeeded or failed, and not once the rule is off', async () => {
    const customer = await server.createUser();
    const on = {
      ...DEFAULT_ALERT_PREFERENCES,
      payments: true,
      channels: { inApp: true, email: true, discord: false },
    };
    expect((await call('PUT', '/me/alerts', on, customer.token)).status).toBe(200);
    await buy(customer, 'fail');
    await buy(customer, 'succeed');
    await evaluateAlerts(server.ctx);
    await evaluateAlerts(server.ctx);
    expect((await titles(customer)).sort()).toEqual(['alert: Paiement échoué', 'info: Paiement reçu']);
    const mail = await server.mail.waitFor({ to: customer.user.email, subject: 'Paiement reçu' });
    expect(mail.text).toContain('10,00');
    // Two hours later the payments are old news: nothing new, nothing repeated.
    await evaluateAlerts(server.ctx, new Date(Date.now() + 2 * 3_600_000));
    expect(await titles(customer)).toHaveLength(2);

    const off = await server.createUser();
    await call('PUT', '/me/alerts', { ...on, payments: false, botOffline: true }, off.token);
    await buy(off, 'succeed');
    await evaluateAlerts(server.ctx);
    expect(await titles(off)).toEqual([]);
  });

  it('warns once when the package ends within 3 days, and not after a renewal', async () => {
    const customer = await server.createUser();
    await call('PUT', '/me/alerts', { ...DEFAULT_ALERT_PREFERENCES, packageExpiring: true }, customer.token);
    await buy(customer, 'succeed'); // 30 days
    await evaluateAlerts(server.ctx, new Date(Date.now() + 26 * DAY_MS));
    expect(await titles(customer)).toEqual([]);
    await evaluateAlerts(server.ctx, new Date(Date.now() + 28 * DAY_MS));
    await evaluateAlerts(server.ctx, new Date(Date.now() + 29 * DAY_MS));
    expect(await titles(customer)).toEqual(['alert: Votre offre se termine bientôt']);

    // A renewal pushes the end 30 days further: the warning ends without a message, none comes back.
    await buy(customer, 'succeed');
    await evaluateAlerts(server.ctx, new Date(Date.now() + 29 * DAY_MS));
    expect(await titles(customer)).toHaveLength(1);
    await evaluateAlerts(server.ctx, new Date(Date.now() + 58 * DAY_MS));
    expect(await titles(customer)).toEqual([
      'alert: Votre offre se termine bientôt',
      'alert: Votre offre se termine bientôt',
    ]);
  });
});
