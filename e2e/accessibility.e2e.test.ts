import { WEB_ROUTES } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { blockingViolations } from './support/accessibility.ts';
import {
  expectHeading,
  openPage,
  serverAndBrowser,
  signInThroughForm,
  visitInApp,
  type WatchedPage,
  waitForApp,
} from './support/browser.ts';

const shared = serverAndBrowser();

/** Opens a page in place, waits for its heading (any h1 when none is given) and its data, and audits it. */
async function audit(watched: WatchedPage, path: string, heading?: string): Promise<string[]> {
  await visitInApp(watched, path, heading);
  return (await blockingViolations(watched.page)).map((violation) => `${path}: ${violation}`);
}

describe('accessibility (axe-core, WCAG 2.2 AA): no serious or critical violation', () => {
  it('on the public pages', async () => {
    const watched = await openPage(shared.browser, shared.server.url);
    await watched.page.goto('/');
    const found: string[] = [];
    for (const route of WEB_ROUTES.filter((entry) => entry.layout === 'landing')) {
      found.push(...(await audit(watched, route.path, route.path === '/' ? undefined : route.name)));
    }
    found.push(...(await audit(watched, '/no-such-page', 'Page not found')));
    await watched.close();
    expect(found).toEqual([]);
  });

  it('on the customer pages', async () => {
    const watched = await signedInAdministrator();
    const found: string[] = [];
    for (const route of WEB_ROUTES.filter((entry) => entry.layout === 'account')) {
      found.push(...(await audit(watched, route.path, route.name)));
    }
    await watched.close();
    expect(found).toEqual([]);
  });

  it('on the admin pages', async () => {
    const watched = await signedInAdministrator();
    const found: string[] = [];
    for (const route of WEB_ROUTES.filter((entry) => entry.layout === 'admin')) {
      found.push(...(await audit(watched, route.path.replace(':id', watched.userId), route.name)));
    }
    await watched.close();
    expect(found).toEqual([]);
  }, 180_000); // fourteen pages, each audited in full (data grids are large DOMs)

  it('in the creation dialogs of the back office', async () => {
    const { page, close } = await signedInAdministrator();
    const found: string[] = [];
    for (const [path, heading, button] of [
      ['/admin/package', 'Offres', 'Nouvelle offre'],
      ['/admin/vouchers', 'Bons', 'Nouveau bon'],
      ['/admin/role', 'Rôles', 'Nouveau rôle'],
      ['/admin/route', 'Itinéraires', 'Nouvel itinéraire'],
      ['/admin/releases', 'Versions du bot', 'Publier une version'],
    ] as const) {
      await page.goto(path);
      await expectHeading(page, heading, path);
      await page.getByRole('button', { name: button }).click();
      await page.getByRole('dialog').waitFor();
      found.push(...(await blockingViolations(page)).map((violation) => `${path} (${button}): ${violation}`));
    }
    await close();
    expect(found).toEqual([]);
  });

  it('lets the keyboard skip to the content and always shows where the focus is', async () => {
    const { user, password } = await shared.server.createUser();
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    // A public page, then a page of the account area (its own layout).
    for (const path of ['/started', '/account']) {
      if (path === '/account') await signInThroughForm(page, user.username, password);
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      // The app has taken over the prerendered copy (public pages).
      await waitForApp(page);
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Aller au contenu' });
      expect(await skip.evaluate((link) => link === document.activeElement), path).toBe(true);
      const box = await skip.boundingBox();
      expect(
        box !== null && box.y >= 0 && box.height > 0,
        `${path}: the focused skip link is on screen`,
      ).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('contenu');
      // The next stop is inside the page, with a visible outline.
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        // A text field shows its focus with its own border (MUI's notched outline), 2 px when focused.
        const notch = element
          .closest('.MuiInputBase-root')
          ?.querySelector('.MuiOutlinedInput-notchedOutline');
        const style = notch ? getComputedStyle(notch) : getComputedStyle(element);
        return {
          insideMain: Boolean(element.closest('main')),
          outline: notch ? style.borderStyle : style.outlineStyle,
          width: Number.parseFloat(notch ? style.borderWidth : style.outlineWidth),
        };
      });
      expect(focused, path).toMatchObject({ insideMain: true, outline: 'solid' });
      expect(focused.width, path).toBeGreaterThanOrEqual(2);
    }
    expect(errors).toEqual([]);
    await close();
  });
});

/** The administrator sees every page (customer pages included) with data from other users around. */
async function signedInAdministrator() {
  const admin = await shared.server.createUser({ isAdministrator: true });
  await shared.server.createUser({ permissions: ['can_useGathering'] });
  const watched = await openPage(shared.browser, shared.server.url);
  await signInThroughForm(watched.page, admin.user.username, admin.password);
  return { ...watched, userId: admin.user.id };
}
