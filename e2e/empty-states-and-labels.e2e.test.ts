import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

const shared = serverAndBrowser();

/** Room left in an input for its placeholder (negative: the placeholder is cut off). */
const placeholderRoom = (input: Locator) =>
  input.evaluate((element) => {
    const field = element as HTMLInputElement;
    const style = getComputedStyle(field);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const inner =
      field.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return inner - context.measureText(field.placeholder).width;
  });

/** True when the element's text is not cut off (no ellipsis: its content fits its box). */
const fitsWithoutEllipsis = (target: Locator) =>
  target.evaluate((element) => element.scrollWidth <= element.clientWidth + 1);

describe('empty lists offer the next step; labels are not cut off (1440 px)', () => {
  it('offers "Créer une offre" on an empty shop, fits search placeholders and keeps the table buttons on one row', async () => {
    const admin = await shared.server.createUser({ isAdministrator: true });
    const { page, close } = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 1440, height: 900 },
      blockServiceWorkers: true,
    });
    await signInThroughForm(page, admin.user.username, admin.password, '/admin');

    await page.goto('/admin/package');
    await expectHeading(page, 'Offres');
    const empty = page.getByTestId('admin-table-empty');
    await empty.waitFor();
    expect(await empty.textContent()).toContain('Aucune offre pour le moment');
    expect(await page.getByText('0–0 sur 0').count()).toBe(0);
    await shoot(page, 'empty-packages_1440', { fullPage: false });
    await empty.getByRole('button', { name: 'Créer une offre' }).click();
    await page.getByRole('dialog', { name: 'Nouvelle offre' }).waitFor();
    await page.keyboard.press('Escape');

    // A search that matches nothing says so, without the creation button.
    await page.getByRole('searchbox', { name: 'Rechercher une offre' }).fill('introuvable');
    await expect.poll(() => empty.textContent()).toContain('Aucun résultat');

    await page.goto('/admin/users');
    await expectHeading(page, 'Utilisateurs');
    const search = page.locator('input[name="q"]');
    expect(await placeholderRoom(search)).toBeGreaterThanOrEqual(0);
    const columns = await page.getByRole('button', { name: 'Colonnes' }).boundingBox();
    const csv = await page.getByRole('button', { name: 'Exporter en CSV' }).boundingBox();
    expect(csv && columns && Math.abs(csv.y - columns.y) < 2).toBe(true); // same row
    expect(csv && csv.height < 44).toBe(true); // one line
    // …and on the search field's row: the three filters do not push them onto a second one.
    const searchBox = await search.boundingBox();
    const widths = await page.evaluate(() => {
      const row = document.querySelector('input[name="q"]')?.closest('.MuiTextField-root')?.parentElement;
      return [row, ...(row?.children ?? [])].map((element) =>
        Math.round(element?.getBoundingClientRect().width ?? 0),
      );
    });
    expect(
      csv && searchBox && Math.abs(csv.y + csv.height / 2 - (searchBox.y + searchBox.height / 2)) < 4,
      widths.join(' | '),
    ).toBe(true);
    await shoot(page, 'users-toolbar_1440', { fullPage: false });
    // On a phone the toolbar wraps, and nothing is wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))
      .toBe(true);
    await shoot(page, 'users-toolbar_390', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto('/admin/audit');
    await expectHeading(page, 'Audit');
    expect(await placeholderRoom(page.locator('input[name="q"]'))).toBeGreaterThanOrEqual(0);

    await page.goto('/admin/vouchers');
    await expectHeading(page, 'Bons');
    await page.getByRole('button', { name: 'Nouveau bon' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouveau bon' });
    await dialog.waitFor();
    for (const label of ['Utilisations max', 'Utilisations par client']) {
      expect(await fitsWithoutEllipsis(dialog.locator('label').filter({ hasText: label }))).toBe(true);
    }
    await shoot(page, 'voucher-dialog_1440', { fullPage: false });
    await page.keyboard.press('Escape');

    // One "Se déconnecter" on the account page (the menu's), not two in the tab order.
    await page.goto('/account');
    await expectHeading(page, 'Mon compte');
    expect(await page.getByText('Se déconnecter', { exact: true }).count()).toBe(1);
    await close();
  });
});
