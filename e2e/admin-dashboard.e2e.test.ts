import { WEB_ROUTES } from '@bot/contracts';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, type TestUser } from '../apps/server/test/harness.ts';
import { type LiveBot, readCount, startLiveBot } from './live-helpers.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser({ realtime: { adminFlushMs: 100 } });
const bots: LiveBot[] = [];
// Registered after serverAndBrowser: runs before the server closes (after-hooks run in reverse).
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

/** Buys a package through the sandbox provider and pays it. */
async function buy(customer: TestUser, packageId: string) {
  const call = apiClient(shared.server);
  const started = await call<{ data: { id: string } }>('POST', '/me/orders', { packageId }, customer.token);
  expect(started.status).toBe(201);
  const paid = await call(
    'POST',
    `/payments/sandbox/${started.body.data.id}/succeed`,
    undefined,
    customer.token,
  );
  expect(paid.status).toBe(200);
}

/** Every API answer 403 the page received (a card shown without its permission would cause one). */
function recordForbidden(page: Page): string[] {
  const forbidden: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 403) forbidden.push(response.url());
  });
  return forbidden;
}

describe('/admin dashboard', () => {
  it('shows the administrator live counts, revenue, users, audit and every link', async () => {
    const call = apiClient(shared.server);
    const admin = await shared.server.createUser({ isAdministrator: true });
    const packageId = (
      await call<{ data: { id: string } }>(
        'POST',
        '/admin/packages',
        {
          name: 'Tableau',
          priceCents: 1250,
          durationDays: 30,
          grants: ['can_useTreasure'],
          whitelistSlots: 1,
        },
        admin.token,
      )
    ).body.data.id;
    const buyer = await shared.server.createUser();
    await shared.server.createUser();
    await buy(buyer, packageId);
    const bot = await startLiveBot(shared.server, { accounts: 3 });
    bots.push(bot);
    // What the server itself counts (users of this test shared.server, all registered just now).
    const users = await call<{ total: number }>('GET', '/admin/users?pageSize=1', undefined, admin.token);
    expect(users.body.total).toBeGreaterThanOrEqual(4);

    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    const forbidden = recordForbidden(page);
    await signInThroughForm(page, admin.user.username, admin.password);
    await page.goto('/admin');
    await expectHeading(page, 'Administration');

    await expect.poll(() => readCount(page, 'dashboard-bots-online'), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => readCount(page, 'dashboard-accounts-online')).toBe(3);
    await expect.poll(() => readCount(page, 'dashboard-revenue-today')).toBe(1250);
    expect(await readCount(page, 'dashboard-revenue-month')).toBe(1250);
    expect(await page.getByTestId('dashboard-revenue-today').textContent()).toMatch(/12,50\s€/);
    expect(await page.getByTestId('dashboard-revenue').textContent()).toContain('1 commande payée');
    await expect.poll(() => readCount(page, 'dashboard-users-total')).toBe(users.body.total);
    await expect.poll(() => readCount(page, 'dashboard-users-recent')).toBe(users.body.total);

    // Charts: sales per day add up to the month's revenue, new accounts per day to the users created.
    const salesTotal = page.getByTestId('dashboard-chart-sales-total');
    await salesTotal.waitFor();
    expect(await salesTotal.textContent()).toMatch(/12,50\s€/);
    const registrationsTotal = page.getByTestId('dashboard-chart-registrations-total');
    await registrationsTotal.waitFor();
    expect(Number(await registrationsTotal.textContent())).toBe(users.body.total);
    await page.getByTestId('dashboard-chart-online').getByText('Bots actifs par heure').waitFor();
    expect(await page.locator('[data-testid^="dashboard-chart-"] canvas').count()).toBe(3);

    // Latest audit entries: the package created above is among them.
    const audit = page.getByTestId('dashboard-audit');
    await audit.getByTestId('dashboard-audit-entry').first().waitFor();
    expect(await audit.textContent()).toContain(admin.user.username);

    // A link to every other admin page; one opens its page.
    const links = page.getByRole('navigation', { name: 'Accès rapides' }).getByRole('link');
    const otherAdminPages = WEB_ROUTES.filter(
      (route) => route.layout === 'admin' && route.path !== '/admin' && !route.path.includes(':'),
    );
    expect(await links.count()).toBe(otherAdminPages.length);
    await page
      .getByRole('navigation', { name: 'Accès rapides' })
      .getByRole('link', { name: 'Audit' })
      .click();
    await expectHeading(page, 'Audit');

    // A second bot comes online while the dashboard is open: the count follows live.
    await page.goto('/admin');
    await expect.poll(() => readCount(page, 'dashboard-bots-online'), { timeout: 10_000 }).toBe(1);
    const second = await startLiveBot(shared.server, { accounts: 1 });
    bots.push(second);
    await expect.poll(() => readCount(page, 'dashboard-bots-online'), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => readCount(page, 'dashboard-accounts-online')).toBe(4);

    expect(forbidden).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('shows a map-only staff member the live counts and links, and nothing they may not read', async () => {
    const staff = await shared.server.createUser({ permissions: ['can_manageMap'] });
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    const forbidden = recordForbidden(page);
    await signInThroughForm(page, staff.user.username, staff.password);
    await page.goto('/admin');
    await expectHeading(page, 'Administration');
    await expect.poll(() => readCount(page, 'dashboard-bots-online'), { timeout: 10_000 }).toBe(bots.length);
    await page.getByTestId('dashboard-links').waitFor();
    const links = page.getByRole('navigation', { name: 'Accès rapides' }).getByRole('link');
    expect(await links.allTextContents()).toEqual(['Carte']);
    for (const card of ['dashboard-revenue', 'dashboard-users', 'dashboard-audit'])
      expect(await page.getByTestId(card).count(), card).toBe(0);
    // Give any stray request time to answer before judging.
    await page.waitForLoadState('networkidle');
    expect(forbidden).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});
