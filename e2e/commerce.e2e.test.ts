import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../apps/server/test/harness.ts';
import {
  expectHeading,
  launchBrowser,
  openPage,
  readAuthState,
  signInThroughForm,
  unexpectedErrors,
  WEB_DIST,
  waitForPath,
} from './support/browser.ts';

let server: TestServer;
let browser: Browser;
let call: ReturnType<typeof apiClient>;
let webDist: string;

beforeAll(async () => {
  // A private copy of the built app: a rebuild of apps/web/dist by another run cannot pull files away mid-test.
  webDist = await mkdtemp(path.join(os.tmpdir(), 'commerce-web-'));
  await cp(WEB_DIST, webDist, { recursive: true });
  [server, browser] = await Promise.all([startTestServer({ webDist }), launchBrowser()]);
  call = apiClient(server);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (webDist) await rm(webDist, { recursive: true, force: true });
});

describe('commerce journey (sandbox provider)', () => {
  it('buys a package, gets the bot permissions, opens the bot page, whitelists accounts up to the slots', async () => {
    const staff = await server.createUser({ permissions: ['can_managePackages'] });
    const created = await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      {
        name: 'Pack Complet',
        description: 'Récolte et chasse au trésor.',
        priceCents: 1990,
        durationDays: 30,
        grants: ['can_useGathering', 'can_useTreasure'],
        whitelistSlots: 2,
      },
      staff.token,
    );
    expect(created.status).toBe(201);

    const { user, password } = await server.createUser();
    const { page, errors, close } = await openPage(browser, server.url);
    await signInThroughForm(page, user.username, password);
    expect((await readAuthState(page))?.permissions).toEqual([]);

    await page.goto('/account/marketplace');
    await expectHeading(page, 'Boutique');
    const card = page.getByTestId('package-card').filter({ hasText: 'Pack Complet' });
    await card.getByText('19,90').waitFor();
    await card.getByRole('button', { name: 'Acheter' }).click();

    await waitForPath(page, /^\/account\/marketplace\?checkout=[0-9a-f-]{36}$/);
    const checkout = page.getByTestId('sandbox-checkout');
    await checkout.getByText('MODE TEST').waitFor();
    await expect.poll(() => page.getByTestId('sandbox-amount').textContent()).toContain('19,90');
    await checkout.getByRole('button', { name: 'Simuler un paiement réussi' }).click();
    await page.getByTestId('sandbox-outcome').getByText('Paiement accepté').waitFor();

    await expect
      .poll(async () => (await readAuthState(page))?.permissions)
      .toEqual(expect.arrayContaining(['can_useGathering', 'can_useTreasure']));
    await page.getByTestId('subscriptions').getByText('Pack Complet').waitFor();

    await page.goto('/account/mybot');
    await waitForPath(page, '/account/mybot');
    await expectHeading(page, 'Mon bot');

    await page.goto('/account/whitlist');
    await expectHeading(page, 'Liste blanche');
    await expect.poll(() => page.getByTestId('whitelist-slots').textContent()).toContain('0 / 2');
    for (const name of ['Iop-Feu', 'Cra-Eau']) {
      await page.locator('input[name="name"]').fill(name);
      await page.getByRole('button', { name: 'Ajouter' }).click();
      await page.getByTestId('whitelist-entry').filter({ hasText: name }).waitFor();
    }
    await expect.poll(() => page.getByTestId('whitelist-slots').textContent()).toContain('2 / 2');
    expect(await page.locator('input[name="name"]').isDisabled()).toBe(true);
    // The disabled field says why, and links to a larger offer.
    await page
      .getByTestId('whitelist-full')
      .getByRole('link', { name: 'offre avec plus de places' })
      .waitFor();
    const list = await call<{ data: { name: string }[] }>(
      'GET',
      '/me/whitelist',
      undefined,
      (await readAuthState(page))?.token as string,
    );
    expect(list.body.data.map((entry) => entry.name)).toEqual(['Iop-Feu', 'Cra-Eau']);

    await page.getByRole('button', { name: 'Retirer Cra-Eau' }).click();
    // Asked first, saying what happens (experience issue: no destructive action at once).
    const dialog = page.getByRole('dialog', { name: 'Retirer Cra-Eau ?' });
    expect(await dialog.textContent()).toContain('ne pourra plus piloter ce compte');
    await dialog.getByRole('button', { name: 'Retirer' }).click();
    await expect.poll(() => page.getByTestId('whitelist-slots').textContent()).toContain('1 / 2');

    await page.goto('/account/payments');
    await expectHeading(page, 'Mes paiements');
    const row = page.getByTestId('order-row').first();
    await row.getByText('Payée').waitFor();
    await row.getByRole('button', { name: 'Reçu' }).click();
    await expect.poll(() => page.getByTestId('receipt-total').textContent()).toContain('19,90');

    expect(errors).toEqual([]);
    await close();
  });

  it('a gift voucher activates a package with no payment', async () => {
    const staff = await server.createUser({ permissions: ['can_managePackages', 'can_manageVoucher'] });
    const pkg = await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      {
        name: 'Pack Cadeau',
        priceCents: 990,
        durationDays: 7,
        grants: ['can_useGathering'],
        whitelistSlots: 1,
      },
      staff.token,
    );
    const voucher = await call<{ data: { code: string } }>(
      'POST',
      '/admin/vouchers',
      { kind: 'gift', packageId: pkg.body.data.id },
      staff.token,
    );
    const { user, password } = await server.createUser();
    const { page, errors, close } = await openPage(browser, server.url);
    await signInThroughForm(page, user.username, password);
    await page.goto('/account/marketplace');
    await page.locator('input[name="voucherCode"]').fill('INCONNU-E2E');
    await page.getByRole('button', { name: 'Appliquer' }).click();
    await page.getByText("Ce code promo n'existe pas ou n'est plus actif.").waitFor();
    await page.locator('input[name="voucherCode"]').fill(voucher.body.data.code);
    await page.getByRole('button', { name: 'Appliquer' }).click();
    const card = page.getByTestId('package-card').filter({ hasText: 'Pack Cadeau' });
    await card.getByRole('button', { name: 'Activer gratuitement' }).click();
    await page.getByTestId('subscriptions').getByText('Pack Cadeau').waitFor();
    await expect.poll(async () => (await readAuthState(page))?.permissions).toContain('can_useGathering');
    expect(unexpectedErrors(errors, 404)).toEqual([]);
    await close();
  });

  it('staff pages list packages, payments, vouchers and whitelist entries', async () => {
    const { user, password } = await server.createUser({ isAdministrator: true });
    const { page, errors, close } = await openPage(browser, server.url);
    await signInThroughForm(page, user.username, password);
    for (const [path, heading, expected] of [
      ['/admin/package', 'Offres', 'Pack Complet'],
      ['/admin/payments', 'Paiements', 'Pack Complet'],
      ['/admin/vouchers', 'Bons', 'Cadeau (offre gratuite)'],
      ['/admin/whitelist', 'Liste blanche', 'Iop-Feu'],
    ] as const) {
      await page.goto(path);
      await expectHeading(page, heading);
      await page.getByRole('grid').getByText(expected).first().waitFor();
    }
    // Adding for a customer: an empty form is answered field by field, in French, before any request.
    await page.goto('/admin/whitelist');
    await page.getByRole('button', { name: 'Ajouter pour un client' }).click();
    const adding = page.getByRole('dialog', { name: 'Ajouter un compte pour un client' });
    await adding.getByRole('button', { name: 'Ajouter' }).click();
    await adding.getByText('Indiquez le nom d’utilisateur du client.').waitFor();
    await adding.getByText('Nom de compte trop court (2 caractères minimum).').waitFor();
    await adding.getByRole('button', { name: 'Annuler' }).click();
    await page.goto('/admin/payments');
    await expect.poll(() => page.getByTestId('total-paid').textContent()).toContain('19,90');

    await page.goto('/admin/vouchers');
    await page.getByRole('button', { name: 'Nouveau bon' }).click();
    const creating = page.getByRole('dialog', { name: 'Nouveau bon' });
    await creating.locator('input[name="code"]').fill('printemps-e2e');
    await creating.locator('input[name="percentOff"]').fill('');
    await creating.getByRole('button', { name: 'Créer' }).click();
    await creating.getByText('Pourcentage requis (1 à 100).').waitFor();
    await creating.locator('input[name="percentOff"]').fill('20');
    await creating.getByRole('button', { name: 'Créer' }).click();
    const voucherRow = page.getByRole('row').filter({ hasText: 'PRINTEMPS-E2E' });
    await voucherRow.getByText('−20 %').waitFor();
    await voucherRow.getByRole('button', { name: 'Modifier' }).click();
    await page.locator('input[name="percentOff"]').fill('35');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await voucherRow.getByText('−35 %').waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});
