import { describe, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser();

describe('admin tables', () => {
  it('keep row actions on screen at 1,440 px, let staff pick columns and remember the choice', async () => {
    const admin = await shared.server.createUser({ isAdministrator: true });
    const created = await apiClient(shared.server)(
      'POST',
      '/admin/roles',
      { name: 'Modérateurs', description: 'Surveillent la carte et les comptes en ligne.', permissions: [] },
      admin.token,
    );
    expect(created.status).toBe(201);
    const viewport = { width: 1440, height: 900 };
    const { page, errors, close } = await openPage(shared.browser, shared.server.url, { viewport });
    await signInThroughForm(page, admin.user.username, admin.password);
    await page.goto('/admin/role');
    await expectHeading(page, 'Rôles');
    const grid = page.getByRole('grid');
    const header = (name: string) => grid.getByRole('columnheader', { name, exact: true });
    await grid.getByText('Modérateurs').waitFor();

    // The actions column is whole on screen; the secondary columns wait behind "Colonnes".
    const actions = await header('Actions').boundingBox();
    expect(actions && actions.x + actions.width <= viewport.width).toBe(true);
    expect(await header('Description').count()).toBe(0);

    // Staff show one: it appears, and is still there after a reload.
    await page.getByRole('button', { name: 'Colonnes' }).click();
    await page.getByRole('checkbox', { name: 'Description' }).check();
    await header('Description').waitFor();
    await page.keyboard.press('Escape');
    await page.reload();
    await expectHeading(page, 'Rôles');
    await header('Description').waitFor();
    // The rows come after the header (their request may still be in flight).
    await expect.poll(() => grid.getByText('Surveillent la carte').count(), { timeout: 5_000 }).toBe(1);

    // A wide screen shows every column from the start.
    const wide = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 1920, height: 1000 },
    });
    await signInThroughForm(wide.page, admin.user.username, admin.password);
    await wide.page.goto('/admin/payments');
    await expectHeading(wide.page, 'Paiements');
    await wide.page.getByRole('grid').getByRole('columnheader', { name: 'Moyen' }).waitFor();
    expect(errors).toEqual([]);
    expect(wide.errors).toEqual([]);
    await wide.close();
    await close();
  });
});
