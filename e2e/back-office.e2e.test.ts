import { readFile } from 'node:fs/promises';
import { fetchBotRoutes, RouteFollower } from '@bot/bot-agent';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../apps/server/src/core/ids.ts';
import { users } from '../apps/server/src/modules/users/index.ts';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../apps/server/test/harness.ts';
import { startLiveBot } from './live-helpers.ts';
import {
  expectHeading,
  launchBrowser,
  openPage,
  signInThroughForm,
  unexpectedErrors,
  WEB_DIST,
  waitForPath,
} from './support/browser.ts';

let server: TestServer;
let browser: Browser;
let admin: TestUser;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ webDist: WEB_DIST }), launchBrowser()]);
  admin = await server.createUser({ isAdministrator: true });
  call = apiClient(server);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signInAsAdmin(): Promise<Awaited<ReturnType<typeof openPage>>> {
  const watched = await openPage(browser, server.url);
  await signInThroughForm(watched.page, admin.user.username, admin.password);
  return watched;
}

async function saveSettingsThroughForm(
  page: Page,
  change: (page: Page) => Promise<void>,
  options: { turnsMaintenanceOn?: boolean } = {},
) {
  await page.goto('/admin/settings');
  await expectHeading(page, 'Paramètres');
  await page.locator('input[name="isSnow"]').waitFor({ state: 'attached' });
  await change(page);
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  if (options.turnsMaintenanceOn) {
    // Turning maintenance on is confirmed first, saying who is cut off.
    const confirm = page.getByRole('dialog', { name: 'Activer la maintenance ?' });
    await confirm.getByRole('button', { name: 'Activer la maintenance' }).click();
  }
  await page.getByText('Paramètres enregistrés.', { exact: false }).first().waitFor();
}

/** What people read for `can_manageAudit`. */
const AUDIT_LABEL = "Consulter le journal d'audit";

describe('back office journeys', () => {
  it('creates a role, gives it to a user, and the user gains the page', async () => {
    const member = await server.createUser();
    const staff = await signInAsAdmin();
    const { page } = staff;

    await page.goto('/admin/role');
    await expectHeading(page, 'Rôles');
    await page.getByRole('button', { name: 'Nouveau rôle' }).click();
    await page.locator('input[name="name"]').fill('Auditeurs');
    await page.locator('input[name="can_manageAudit"]').check();
    await page.getByRole('button', { name: 'Créer le rôle' }).click();
    await page.getByRole('gridcell', { name: 'Auditeurs', exact: true }).waitFor();
    // its permissions read in French; the raw name is only a hint for who configures
    const roleRow = page.getByRole('row').filter({ hasText: 'Auditeurs' });
    await roleRow.getByText(AUDIT_LABEL, { exact: true }).waitFor();
    expect(await roleRow.textContent()).not.toContain('can_');

    // the member cannot open the audit page yet
    const customer = await openPage(browser, server.url);
    await signInThroughForm(customer.page, member.user.username, member.password);
    await customer.page.goto('/admin/audit');
    await waitForPath(customer.page, '/account');

    await page.goto(`/admin/users/${member.user.id}`);
    await expectHeading(page, 'Utilisateur');
    await page.getByRole('combobox', { name: 'Rôles' }).click();
    await page.getByRole('option', { name: 'Auditeurs' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Enregistrer les rôles' }).click();
    const effective = page.getByTestId('effective-permissions');
    await effective.getByText(AUDIT_LABEL, { exact: true }).waitFor();
    expect(await effective.textContent()).not.toContain('can_');
    await page.getByRole('button', { name: 'Accorder…' }).click();
    const grantDialog = page.getByRole('dialog', { name: 'Accorder « Utiliser le bot de récolte »' });
    await grantDialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    const grants = page.getByRole('table', { name: 'Permissions accordées' });
    await grants.getByText('Utiliser le bot de récolte', { exact: true }).waitFor();
    expect(await grants.textContent()).not.toContain('can_');

    // on the member's next visit the page opens
    await customer.page.goto('/admin/audit');
    await expectHeading(customer.page, 'Audit');
    expect(new URL(customer.page.url()).pathname).toBe('/admin/audit');

    // the audit detail of both changes: French labels and dates, no raw name, no ISO date, no JSON
    await page.goto('/admin/audit');
    await expectHeading(page, 'Audit');
    const detailOf = async (action: string) => {
      await page.getByRole('row').filter({ hasText: action }).first().click();
      const dialog = page.getByRole('dialog', { name: action });
      await dialog.getByTestId('audit-detail').waitFor();
      const text = (await dialog.textContent()) ?? '';
      expect(text).not.toMatch(/can_|\d{4}-\d{2}-\d{2}T|[{}"]/);
      return { dialog, text };
    };
    const created = await detailOf('Rôle créé');
    expect(created.text).toContain('Permissions');
    await created.dialog.getByText(AUDIT_LABEL, { exact: true }).waitFor();
    await created.dialog.getByRole('button', { name: 'Fermer' }).click();
    const granted = await detailOf('Permission accordée');
    expect(granted.text).toContain('Utiliser le bot de récolte');
    expect(granted.text).toMatch(/Fin\s*\d{2}\/\d{2}\/\d{4}\s\d{2}:\d{2}/);
    await granted.dialog.getByRole('button', { name: 'Fermer' }).click();

    // a role someone holds cannot be deleted: the server says why and the role stays
    await page.goto('/admin/role');
    await page.getByRole('button', { name: 'Supprimer Auditeurs' }).click();
    const confirm = page.getByRole('dialog', { name: 'Supprimer le rôle « Auditeurs » ?' });
    await confirm.getByText('Ce rôle est attribué à 1 utilisateur').waitFor();
    await confirm.getByRole('button', { name: 'Supprimer' }).click();
    await page
      .getByText('Ce rôle est encore attribué à 1 utilisateur. Retirez-le-leur avant de le supprimer.')
      .waitFor();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('gridcell', { name: 'Auditeurs', exact: true }).waitFor();

    expect(unexpectedErrors(staff.errors, 409)).toEqual([]);
    expect(unexpectedErrors(customer.errors)).toEqual([]);
    await customer.close();
    await staff.close();
  });

  it('a new package grants both bot permissions, warns when one is left, and reads its price in euros', async () => {
    const { page, errors, close } = await signInAsAdmin();
    await page.goto('/admin/package');
    await expectHeading(page, 'Offres');
    await page.getByRole('button', { name: 'Nouvelle offre' }).click();
    const dialog = page.getByRole('dialog');
    const gathering = dialog.locator('input[name="can_useGathering"]');
    const treasure = dialog.locator('input[name="can_useTreasure"]');
    expect([await gathering.isChecked(), await treasure.isChecked()]).toEqual([true, true]);
    expect(await dialog.getByTestId('package-one-grant-warning').count()).toBe(0);
    await treasure.uncheck();
    await dialog.getByTestId('package-one-grant-warning').waitFor();
    expect(await dialog.getByTestId('package-one-grant-warning').textContent()).toContain('Mon bot');
    await treasure.check();
    // A price the form cannot read is said in French under the field, nothing is sent.
    await dialog.locator('input[name="name"]').fill('Offre du test');
    await dialog.locator('input[name="price"]').fill('douze euros');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.getByText('Prix en euros, par exemple 9,99.').waitFor();
    await dialog.locator('input[name="price"]').fill('12,50');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'Offre du test' });
    await row.waitFor();
    expect(await row.textContent()).toContain('12,50');
    expect(unexpectedErrors(errors)).toEqual([]);
    await close();
  });

  it('bans a user: their session ends and their bot drops', async () => {
    const bot = await startLiveBot(server);
    let fatal = '';
    bot.client.on('fatal', (error) => {
      fatal = error.code;
    });
    const customer = await openPage(browser, server.url);
    await signInThroughForm(customer.page, bot.owner.user.username, bot.owner.password);

    const staff = await signInAsAdmin();
    const { page } = staff;
    await page.goto(`/admin/users/${bot.owner.user.id}`);
    await expectHeading(page, 'Utilisateur');
    await page.getByRole('button', { name: 'Bannir', exact: true }).click();
    await page.locator('textarea[name="reason"]').fill('Revente de comptes');
    await page.getByRole('dialog').getByRole('button', { name: 'Bannir' }).click();
    await expect.poll(() => page.getByTestId('user-status').textContent()).toBe('Banni');

    await expect.poll(() => fatal, { timeout: 10_000 }).toBe('ACCOUNT_BANNED');
    expect(bot.client.isConnected).toBe(false);
    // the customer's next request finds the session over: back to the sign-in page
    await customer.page.reload();
    await waitForPath(customer.page, '/login');
    expect((await call('GET', '/me/info', undefined, bot.owner.token)).status).toBe(401);

    expect(unexpectedErrors(staff.errors)).toEqual([]);
    expect(unexpectedErrors(customer.errors, 401)).toEqual([]);
    await bot.stop();
    await customer.close();
    await staff.close();
  });

  it('turns snow on and the open landing page snows without a reload', async () => {
    const visitor = await openPage(browser, server.url);
    await visitor.page.clock.install();
    await visitor.page.goto('/');
    await visitor.page.locator('h1').first().waitFor();
    expect(await visitor.page.getByTestId('snow').count()).toBe(0);

    const staff = await signInAsAdmin();
    await saveSettingsThroughForm(staff.page, (page) => page.locator('input[name="isSnow"]').check());

    // the landing page re-reads the public settings every 10 s
    await visitor.page.clock.runFor(31_000);
    await visitor.page.getByTestId('snow').waitFor({ state: 'attached' });

    await saveSettingsThroughForm(staff.page, (page) => page.locator('input[name="isSnow"]').uncheck());
    await visitor.page.clock.runFor(31_000);
    await expect.poll(() => visitor.page.getByTestId('snow').count()).toBe(0);
    expect(visitor.errors).toEqual([]);
    expect(unexpectedErrors(staff.errors)).toEqual([]);
    await visitor.close();
    await staff.close();
  });

  it('maintenance mode: customers see the maintenance page and get 503, staff keep working', async () => {
    const member = await server.createUser();
    const customer = await openPage(browser, server.url);
    await signInThroughForm(customer.page, member.user.username, member.password);

    const staff = await signInAsAdmin();
    await saveSettingsThroughForm(
      staff.page,
      async (page) => {
        await page.locator('input[name="maintenanceMode"]').check();
        await page.locator('textarea[name="maintenanceMessage"]').fill('Retour prévu à 15 h.');
      },
      { turnsMaintenanceOn: true },
    );

    await customer.page.reload();
    await customer.page.getByText('Maintenance en cours').waitFor();
    expect(await customer.page.getByTestId('maintenance-message').textContent()).toBe('Retour prévu à 15 h.');
    const blocked = await call('GET', '/packages', undefined, member.token);
    expect(blocked.status).toBe(503);
    expect(blocked.body).toMatchObject({ code: 'MAINTENANCE', error: 'Retour prévu à 15 h.' });

    // staff keep the admin area
    await staff.page.goto('/admin/users');
    await expectHeading(staff.page, 'Utilisateurs');
    await staff.page.getByRole('gridcell', { name: member.user.username, exact: true }).waitFor();

    await saveSettingsThroughForm(staff.page, (page) =>
      page.locator('input[name="maintenanceMode"]').uncheck(),
    );
    await customer.page.reload();
    await expectHeading(customer.page, 'Mon compte');
    expect(unexpectedErrors(staff.errors)).toEqual([]);
    expect(unexpectedErrors(customer.errors, 503)).toEqual([]);
    await customer.close();
    await staff.close();
  });

  it('exports a large user list as CSV with the search applied', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: newId(),
      username: `export_${String(i).padStart(4, '0')}`,
      email: `export_${i}@example.test`,
      passwordHash: 'x',
      activatedAt: new Date(),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await server.ctx.db.insert(users).values(rows.slice(i, i + 500));
    const staff = await signInAsAdmin();
    const { page } = staff;
    await page.goto('/admin/users');
    await page.getByRole('searchbox').fill('export_');
    await page.getByText(/sur 3\s?000/).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exporter en CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('utilisateurs.csv');
    const text = await readFile((await download.path()) as string, 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines).toHaveLength(3001);
    expect(lines.slice(1).every((line) => line.includes(';export_'))).toBe(true);

    // page, search and sort live in the URL: a reload keeps them
    await page.getByRole('button', { name: /page suivante/i }).click();
    await page.getByText(/26–50 sur 3\s?000/).waitFor();
    await page.reload();
    await page.getByText(/26–50 sur 3\s?000/).waitFor();
    expect(await page.getByRole('searchbox').inputValue()).toBe('export_');
    expect(unexpectedErrors(staff.errors)).toEqual([]);
    await staff.close();
  });

  it('publishes a route on the grid; an entitled simulated bot fetches it and follows it', async () => {
    const staff = await signInAsAdmin();
    const { page } = staff;
    await page.goto('/admin/route');
    await expectHeading(page, 'Itinéraires');
    await page.getByRole('button', { name: 'Nouvel itinéraire' }).click();
    await page.locator('input[name="name"]').fill('Tour des plaines');
    const grid = page.getByTestId('world-grid');
    await grid.waitFor();
    // cells are 8 px from (-40, -40): these pick [0, 0] and [3, 0]
    await grid.click({ position: { x: 40 * 8 + 4, y: 40 * 8 + 4 } });
    await grid.click({ position: { x: 43 * 8 + 4, y: 40 * 8 + 4 } });
    await page.getByText('Étapes (2)').waitFor();
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    const row = page.getByRole('row', { name: /Tour des plaines/ });
    await row.waitFor();
    await row.getByRole('button', { name: 'Publier' }).click();
    await row.getByText('Publié').waitFor();

    const bot = await startLiveBot(server);
    const session = await bot.client.openSession();
    const routes = await fetchBotRoutes({ serverUrl: server.url, token: session.token, hwid: bot.hwid });
    const route = routes.find((item) => item.name === 'Tour des plaines');
    expect(route?.steps.map(({ x, y, action }) => ({ x, y, action }))).toEqual([
      { x: 0, y: 0, action: 'gather' },
      { x: 3, y: 0, action: 'gather' },
    ]);

    // the simulated bot follows it: its first account walks to [0, 0] and gathers there
    const follower = new RouteFollower(route!, { actionTicks: 2 });
    const account = (): string => bot.accounts[0]!;
    let reached = false;
    let lastReport = bot.world.tick();
    // The follower owns this account's position; the simulator keeps driving the others.
    let followed = bot.world.tick().accounts.find((item) => item.name === account())!;
    for (let tick = 0; tick < 200 && !reached; tick += 1) {
      const report = bot.world.tick();
      followed = follower.advance(followed);
      report.accounts = report.accounts.map((item) => (item.name === account() ? followed : item));
      bot.client.report(report);
      lastReport = report;
      reached = followed.status === 'gathering' && followed.position.x === 0 && followed.position.y === 0;
    }
    expect(reached).toBe(true);
    await expect
      .poll(
        async () => {
          // The hub keeps a few reports per second: the last one is sent again until it lands.
          bot.client.report(lastReport);
          const state = await server.ctx.live.botState(bot.hwid);
          const live = state?.accounts.find((item) => item.name === account());
          return live && `${live.routeId}:${live.position.x},${live.position.y}`;
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe(`${route!.id}:0,0`);
    await bot.stop();

    // deleted after a confirmation: the list no longer shows it
    await row.getByRole('button', { name: 'Supprimer Tour des plaines' }).click();
    await page
      .getByRole('dialog', { name: 'Supprimer « Tour des plaines » ?' })
      .getByRole('button', { name: 'Supprimer' })
      .click();
    await page.getByText('Itinéraire supprimé.').waitFor();
    await row.waitFor({ state: 'detached' });
    expect(unexpectedErrors(staff.errors)).toEqual([]);
    await staff.close();
  });
});
