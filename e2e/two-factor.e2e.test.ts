import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { updateSettings } from '../apps/server/src/modules/settings/index.ts';
import {
  expectHeading,
  openPage,
  serverAndBrowser,
  signInThroughForm,
  waitForPath,
} from './support/browser.ts';

const shared = serverAndBrowser();

/** What the authenticator app shows, `stepsAhead` 30-second steps from now (each step is taken once). */
function authenticatorCode(secret: string, stepsAhead = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** Enrols through the account page's card; answers the secret and the recovery codes shown once. */
async function enrolThroughAccountPage(
  page: Page,
  password: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const card = page.getByRole('region', { name: 'Double authentification' });
  await card.getByRole('button', { name: 'Activer la double authentification' }).click();
  const qr = card.getByRole('img', { name: /QR code à scanner/ });
  await qr.waitFor();
  expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  const secret = (await card.getByTestId('two-factor-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await card.getByLabel('Code à 6 chiffres').fill(authenticatorCode(secret));
  await card.getByLabel('Mot de passe').fill(password);
  await card.getByRole('button', { name: 'Vérifier et activer' }).click();
  const list = card.getByTestId('recovery-codes');
  await list.waitFor();
  const recoveryCodes = (await list.locator('li').allTextContents()).map((code) => code.trim());
  expect(recoveryCodes).toHaveLength(10);
  await card.getByRole('button', { name: 'J’ai conservé mes codes' }).click();
  await card.getByText('Codes de secours restants : 10 sur 10.').waitFor();
  return { secret, recoveryCodes };
}

async function signInWithCode(page: Page, username: string, password: string, code: string) {
  await page.goto('/login');
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.getByRole('heading', { name: 'Vérification en deux étapes' }).waitFor();
  await page.getByLabel('Code de vérification').fill(code);
  await page.getByRole('button', { name: 'Vérifier' }).click();
}

describe('two-factor authentication in the browser', () => {
  it('a customer turns it on, signs in with an app code then a recovery code, turns it off', async () => {
    const { user, password } = await shared.server.createUser();
    const first = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(first.page, user.username, password);
    await first.page.goto('/account');
    await expectHeading(first.page, 'Mon compte');
    const { secret, recoveryCodes } = await enrolThroughAccountPage(first.page, password);

    // A new browser: the password is no longer enough.
    const second = await openPage(shared.browser, shared.server.url);
    await signInWithCode(second.page, user.username, password, authenticatorCode(secret, 1));
    await waitForPath(second.page, '/account');
    await expectHeading(second.page, 'Mon compte');

    const third = await openPage(shared.browser, shared.server.url);
    await signInWithCode(third.page, user.username, password, recoveryCodes[0] ?? '');
    await waitForPath(third.page, '/account');
    await third.page
      .getByRole('region', { name: 'Double authentification' })
      .getByText('Codes de secours restants : 9 sur 10.')
      .waitFor();

    // Turning it off asks for the password and a code again.
    const card = third.page.getByRole('region', { name: 'Double authentification' });
    await card.getByRole('button', { name: 'Désactiver' }).click();
    const dialog = third.page.getByRole('dialog', { name: 'Désactiver la double authentification ?' });
    await dialog.getByLabel('Mot de passe').fill(password);
    await dialog.getByLabel('Code de l’application ou code de secours').fill(recoveryCodes[1] ?? '');
    await dialog.getByRole('button', { name: 'Désactiver' }).click();
    await card.getByRole('button', { name: 'Activer la double authentification' }).waitFor();

    for (const watched of [first, second, third]) {
      expect(watched.errors).toEqual([]);
      await watched.close();
    }
  });

  it('sends staff to enrolment before the admin area when it is mandatory', async () => {
    await updateSettings(shared.server.ctx, {
      patch: { staffTwoFactorRequired: true },
      actor: { id: null, username: 'test', ip: null },
    });
    try {
      const { user, password } = await shared.server.createUser({ permissions: ['can_manageMap'] });
      const { page, errors, close } = await openPage(shared.browser, shared.server.url);
      await signInThroughForm(page, user.username, password, '/account');
      await expectHeading(page, 'Mon compte');
      expect(new URL(page.url()).hash).toBe('#double-authentification');
      await page
        .getByText('La double authentification est obligatoire pour l’administration')
        .first()
        .waitFor();
      await page
        .getByRole('region', { name: 'Double authentification' })
        .getByText('Elle est obligatoire pour accéder à l’administration')
        .waitFor();

      await enrolThroughAccountPage(page, password);
      await page.goto('/admin/map');
      await expectHeading(page, 'Carte');
      expect(new URL(page.url()).pathname).toBe('/admin/map');
      expect(errors).toEqual([]);
      await close();
    } finally {
      await updateSettings(shared.server.ctx, {
        patch: { staffTwoFactorRequired: false },
        actor: { id: null, username: 'test', ip: null },
      });
    }
  });
});
