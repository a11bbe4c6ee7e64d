import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../apps/server/test/harness.ts';
import {
  expectHeading,
  launchBrowser,
  openPage,
  signInThroughForm,
  WEB_DIST,
  waitForPath,
} from './support/browser.ts';

/**
 * A customer who closes the checkout keeps their voucher: the pending order is offered back
 * ("Reprendre le paiement" / "Annuler"), cancelling it gives the code back at once, and only what
 * was paid has a receipt.
 */
let server: TestServer;
let browser: Browser;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ webDist: WEB_DIST }), launchBrowser()]);
  call = apiClient(server);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('walking away from a checkout', () => {
  it('resumes, cancels, pays with the same voucher; the cancelled order has no receipt', async () => {
    const staff = await server.createUser({ permissions: ['can_managePackages', 'can_manageVoucher'] });
    await call(
      'POST',
      '/admin/packages',
      {
        name: 'Pack Mois',
        priceCents: 2000,
        durationDays: 30,
        grants: ['can_useGathering'],
        whitelistSlots: 1,
      },
      staff.token,
    );
    const voucher = await call<{ data: { code: string } }>(
      'POST',
      '/admin/vouchers',
      { kind: 'percent', percentOff: 50, perCustomerLimit: 1 },
      staff.token,
    );
    const code = voucher.body.data.code;
    const { user, password } = await server.createUser();
    const { page, errors, close } = await openPage(browser, server.url);
    await signInThroughForm(page, user.username, password);

    const startCheckout = async () => {
      await page.goto('/account/marketplace');
      await expectHeading(page, 'Boutique');
      await page.locator('input[name="voucherCode"]').fill(code);
      await page.getByRole('button', { name: 'Appliquer' }).click();
      const card = page.getByTestId('package-card').filter({ hasText: 'Pack Mois' });
      await card.getByText('10,00').waitFor();
      await card.getByRole('button', { name: 'Acheter' }).click();
      await waitForPath(page, /\?checkout=/);
      await expect.poll(() => page.getByTestId('sandbox-amount').textContent()).toContain('10,00');
    };

    await startCheckout();
    // The customer leaves the checkout page; coming back, the shop offers to resume or cancel.
    await page.goto('/account/payments');
    await expectHeading(page, 'Mes paiements');
    await page.goto('/account/marketplace');
    const pending = page.getByTestId('pending-order');
    await pending.getByText('avec le code').waitFor();
    // The code the checkout holds is offered again: the prices show it applied.
    await expect.poll(() => page.locator('input[name="voucherCode"]').inputValue()).toBe(code);
    await page.getByTestId('package-card').filter({ hasText: 'Pack Mois' }).getByText('10,00').waitFor();
    await pending.getByRole('link', { name: 'Reprendre le paiement' }).click();
    await waitForPath(page, /\?checkout=/);
    await expect.poll(() => pending.count()).toBe(0);
    await page.getByRole('button', { name: 'Annuler le paiement' }).click();
    await page.getByTestId('sandbox-outcome').getByText('Paiement annulé').waitFor();

    // The code is usable again: same discount, paid this time. A double click starts one checkout.
    await page.goto('/account/marketplace');
    await page.locator('input[name="voucherCode"]').fill(code);
    await page.getByRole('button', { name: 'Appliquer' }).click();
    const card = page.getByTestId('package-card').filter({ hasText: 'Pack Mois' });
    await card.getByText('10,00').waitFor();
    await card.getByRole('button', { name: 'Acheter' }).dblclick();
    await waitForPath(page, /\?checkout=/);
    await expect.poll(() => page.getByTestId('sandbox-amount').textContent()).toContain('10,00');
    await page.getByRole('button', { name: 'Simuler un paiement réussi' }).click();
    await page.getByTestId('sandbox-outcome').getByText('Paiement accepté').waitFor();

    await page.goto('/account/payments');
    await page.getByRole('columnheader', { name: 'Montant' }).waitFor();
    const rows = page.getByTestId('order-row');
    await expect.poll(() => rows.count()).toBe(2); // the cancelled one and the paid one: no extra from the double click
    const cancelled = rows.filter({ hasText: 'Annulée' });
    const paid = rows.filter({ hasText: 'Payée' });
    expect(await cancelled.getByRole('button', { name: 'Reçu' }).count()).toBe(0);
    await paid.getByRole('button', { name: 'Reçu' }).click();
    await expect.poll(() => page.getByTestId('receipt-total').textContent()).toContain('10,00');
    expect(errors).toEqual([]);
    await close();
  });
});
