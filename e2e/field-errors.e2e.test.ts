import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../apps/server/test/harness.ts';
import { openPage, serverAndBrowser } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

const shared = serverAndBrowser();

async function fillRegistration(page: Page, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) await page.locator(`input[name="${name}"]`).fill(value);
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/register'));
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await answered;
}

/** The message under a field (its helper text, which the input names as its description). */
async function messageUnder(page: Page, name: string): Promise<string> {
  const input = page.locator(`input[name="${name}"]`);
  await page.locator(`input[name="${name}"][aria-invalid="true"]`).waitFor();
  const describedBy = await input.getAttribute('aria-describedby');
  const help = page.locator(`[id="${describedBy}"]`);
  const [inputBox, helpBox] = [await input.boundingBox(), await help.boundingBox()];
  // Right under its field, not somewhere else on the page.
  expect(helpBox && inputBox && helpBox.y >= inputBox.y + inputBox.height - 1).toBe(true);
  expect(helpBox && inputBox && helpBox.y - (inputBox.y + inputBox.height) < 40).toBe(true);
  return (await help.textContent()) ?? '';
}

describe('server refusals appear next to the field they concern', () => {
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    it(`registration at ${width} px: a taken username, an unknown sponsor; one success message each`, async () => {
      const taken = await shared.server.createUser();
      const { page, errors, close } = await openPage(shared.browser, shared.server.url, {
        viewport: { width, height },
        blockServiceWorkers: true,
      });
      await page.goto('/register');
      const fresh = `nouveau${width}${Date.now().toString(36)}`;

      await fillRegistration(page, {
        username: taken.user.username,
        email: `${fresh}@example.test`,
        password: TEST_PASSWORD,
      });
      expect(await messageUnder(page, 'username')).toBe("Ce nom d'utilisateur est déjà pris.");
      await shoot(page, `register-username-taken_${width}`, { fullPage: false });
      // Not also in a toast over the title.
      expect(await page.getByRole('alert').filter({ hasText: 'déjà pris' }).count()).toBe(0);
      // Editing the field clears its refusal.
      await page.locator('input[name="username"]').fill(fresh);
      await page.locator('input[name="username"]:not([aria-invalid="true"])').waitFor();

      await fillRegistration(page, { referral: 'personne-inconnue' });
      expect(await messageUnder(page, 'referral')).toContain('Ce parrain n');
      await shoot(page, `register-referral-unknown_${width}`, { fullPage: false });
      expect(await page.getByRole('alert').filter({ hasText: 'parrain' }).count()).toBe(0);

      await fillRegistration(page, { referral: taken.user.username });
      const box = page.getByTestId('register-success');
      await box.waitFor();
      const toast = page.locator('.Toastify__toast').filter({ hasText: 'Inscription réussie' });
      await toast.waitFor();
      // The box says what to do next, the toast that it worked: not the same words twice.
      expect(await box.textContent()).toContain(`${fresh}@example.test`);
      expect(await box.textContent()).not.toContain('Inscription réussie');
      expect(await toast.textContent()).not.toContain('e-mail');
      expect(errors.filter((error) => !/status of (400|409)/.test(error))).toEqual([]);
      await close();
    });
  }
});
