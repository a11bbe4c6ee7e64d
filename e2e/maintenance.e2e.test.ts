import { describe, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { blockingViolations } from './support/accessibility.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

const shared = serverAndBrowser();

const MESSAGE = 'Mise à jour des serveurs, retour vers 14 h.';
const ANNOUNCEMENT = 'Nouvelle saison disponible dès demain.';

describe('maintenance mode', () => {
  it('asks before cutting people off, shows "Maintenance active" across the admin area, one click to leave', async () => {
    const call = apiClient(shared.server);
    const admin = await shared.server.createUser({ isAdministrator: true });
    const customer = await shared.server.createUser();
    const settings = async () =>
      (await call<{ data: { maintenanceMode: boolean } }>('GET', '/admin/settings', undefined, admin.token))
        .body.data.maintenanceMode;
    expect(
      (
        await call(
          'PUT',
          '/admin/settings',
          { maintenanceMessage: MESSAGE, announcement: ANNOUNCEMENT },
          admin.token,
        )
      ).status,
    ).toBe(200);

    const staff = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 1440, height: 900 },
      blockServiceWorkers: true,
    });
    const { page } = staff;
    await signInThroughForm(page, admin.user.username, admin.password, '/admin');
    await page.goto('/admin/settings');
    await expectHeading(page, 'Paramètres');
    const form = page.getByRole('form', { name: 'Paramètres du site' });
    await form.getByLabel('Mode maintenance').check();
    await form.getByRole('button', { name: 'Enregistrer' }).click();

    // Asked first, saying who will be cut off; "Annuler" changes nothing.
    const dialog = page.getByRole('dialog', { name: 'Activer la maintenance ?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('visiteurs et clients seront coupés');
    await shoot(page, 'maintenance-confirm_1440', { fullPage: false });
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await settings()).toBe(false);

    await form.getByRole('button', { name: 'Enregistrer' }).click();
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/admin/settings'));
    await dialog.getByRole('button', { name: 'Activer la maintenance' }).click();
    await saved;
    expect(await settings()).toBe(true);

    // The status on every admin page; in the admin area the customers' banner is not repeated.
    const status = page.getByTestId('maintenance-status');
    await status.waitFor();
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Utilisateurs', exact: true })
      .click();
    await expectHeading(page, 'Utilisateurs');
    await status.waitFor();
    expect(await page.getByText(MESSAGE).count()).toBe(0);
    await shoot(page, 'maintenance-status_1440', { fullPage: false });
    // The way out stays clickable while the save's toast is up (the toast sits top-right).
    expect(
      await status.getByRole('button', { name: 'Quitter la maintenance' }).evaluate((element) => {
        const box = element.getBoundingClientRect();
        return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
      }),
    ).toBe(true);
    expect(await blockingViolations(page)).toEqual([]);

    // The dashboard's log reads the settings by their labels.
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Tableau de bord' })
      .click();
    const log = page.getByTestId('dashboard-audit');
    await log
      .getByText(/Mode maintenance/)
      .first()
      .waitFor();
    expect(await log.textContent()).not.toMatch(/maintenanceMode|announcement/);

    // A customer meets the message once: no banner over the maintenance page, no announcement on top.
    const visitor = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 390, height: 844 },
      blockServiceWorkers: true,
    });
    await signInThroughForm(visitor.page, customer.user.username, customer.password, '/account');
    await visitor.page.goto('/account');
    await visitor.page.getByTestId('maintenance-message').waitFor();
    expect(await visitor.page.getByText(MESSAGE).count()).toBe(1);
    expect(await visitor.page.getByText(ANNOUNCEMENT).count()).toBe(0);
    expect(await visitor.page.getByTestId('site-banner').count()).toBe(0);
    await shoot(visitor.page, 'maintenance-customer_390', { fullPage: false });
    await visitor.close();

    // Staff at 390 px: the status and its button fit; one click ends it.
    await page.setViewportSize({ width: 390, height: 844 });
    await status.waitFor();
    await shoot(page, 'maintenance-status_390', { fullPage: false });
    await status.getByRole('button', { name: 'Quitter la maintenance' }).click();
    await status.waitFor({ state: 'hidden' });
    expect(await settings()).toBe(false);
    await staff.close();
    await call('PUT', '/admin/settings', { announcement: '' }, admin.token);
  });
});
