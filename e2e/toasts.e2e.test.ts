import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/harness.ts';
import { expectHeading, launchBrowser, openPage, signInThroughForm, WEB_DIST } from './support/browser.ts';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ webDist: WEB_DIST }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('toasts', () => {
  it('appear below the header, one per event', async () => {
    const { user, password } = await server.createUser();
    const { page, close } = await openPage(browser, server.url);
    await signInThroughForm(page, user.username, password);
    await page.goto('/account');
    await expectHeading(page, 'Mon compte');

    // The same refusal three times in a row: one toast, not three.
    const form = page.getByRole('form', { name: 'Changer le mot de passe' });
    await form.getByLabel('Mot de passe actuel').fill('Pas-Le-Bon-Mot-De-Passe');
    await form.getByLabel('Nouveau mot de passe').fill('Girafe-Bleue-Du-Matin-4');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answered = page.waitForResponse((response) => response.url().endsWith('/api/me/password'));
      await form.getByRole('button', { name: 'Changer le mot de passe' }).click();
      await answered;
    }
    const toast = page.getByRole('alert').filter({ hasText: 'Le mot de passe actuel est incorrect.' });
    await toast.first().waitFor();
    expect(await toast.count()).toBe(1);

    const header = await page.locator('header').first().boundingBox();
    const shown = await toast.first().boundingBox();
    expect(header && shown && shown.y >= header.y + header.height).toBe(true);
    await close();
  });
});
