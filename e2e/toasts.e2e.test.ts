import { describe, expect, it } from 'vitest';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser();

describe('toasts', () => {
  it('appear below the header, one per event', async () => {
    const { user, password } = await shared.server.createUser();
    const { page, close } = await openPage(shared.browser, shared.server.url);
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
