import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blockingViolations } from './support/accessibility.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

const shared = serverAndBrowser();

/** True when a click at the element's centre reaches the element (nothing lies over it). */
async function isOnTop(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && (element === hit || element.contains(hit));
  });
}

async function box(target: Locator) {
  const found = await target.boundingBox();
  if (!found) throw new Error('element not displayed');
  return found;
}

async function setSettings(token: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${shared.server.api}/admin/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

const OFFLINE_READY = 'L’application est prête à fonctionner hors ligne.';

describe('the offline-ready toast on a first visit (service worker installing)', () => {
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    it(`is a small toast under the header that covers neither menu nor form at ${width} px`, async () => {
      const { user, password } = await shared.server.createUser();
      const { page, close } = await openPage(shared.browser, shared.server.url, {
        viewport: { width, height },
      });
      await signInThroughForm(page, user.username, password);
      await expectHeading(page, 'Mon compte');
      const toast = page.locator('.Toastify__toast').filter({ hasText: OFFLINE_READY });
      await toast.waitFor({ timeout: 20_000 });
      // Its entry animation ended (not its progress bar's, which runs until it closes): the box
      // measured is the one that stays.
      await toast.evaluate((element) =>
        Promise.all(element.getAnimations().map((animation) => animation.finished)),
      );
      await shoot(page, `offline-ready_${width}`, { fullPage: false });

      const shown = await box(toast);
      const header = await box(page.locator('header').first());
      expect(shown.height).toBeLessThan(120); // one toast, not a screen-high panel
      expect(shown.y).toBeGreaterThanOrEqual(header.y + header.height);
      expect(shown.y + shown.height).toBeLessThan(height / 3);
      // Top-right on a wide screen; the whole width under the bar on a phone.
      expect(shown.x + shown.width).toBeGreaterThan(width - 40);

      if (width >= 1280) {
        // The side menu stays clickable while the toast is up.
        const menu = page.getByRole('navigation', { name: 'Mon espace' });
        for (const name of ['Mon compte', 'Boutique', 'Mon bot', 'Mes paiements', 'Liste blanche']) {
          expect(await isOnTop(menu.getByRole('link', { name }))).toBe(true);
        }
        await menu.getByRole('link', { name: 'Mes paiements' }).click({ timeout: 2000 });
        await expectHeading(page, 'Mes paiements');
      } else {
        const menuButton = page.getByRole('button', { name: 'Ouvrir le menu' });
        expect(await isOnTop(menuButton)).toBe(true);
        // The page's primary button stays reachable.
        const primary = page.getByRole('button', { name: 'Changer le mot de passe' });
        await primary.scrollIntoViewIfNeeded();
        expect(await isOnTop(primary)).toBe(true);
      }
      await close();
    });
  }
});

describe('an announcement and a maintenance banner take their own space above the header', () => {
  it('keeps the menu button, bell and account reachable at 390 px and the logo at 1440 px', async () => {
    const admin = await shared.server.createUser({ isAdministrator: true });
    const { user, password } = await shared.server.createUser();
    await setSettings(admin.token, {
      announcement: 'Nouvelle saison : les routes du désert sont arrivées, pensez à mettre votre bot à jour.',
    });
    try {
      for (const [width, height] of [
        [390, 844],
        [1440, 900],
      ] as const) {
        const { page, close } = await openPage(shared.browser, shared.server.url, {
          viewport: { width, height },
          blockServiceWorkers: true,
        });
        await signInThroughForm(page, user.username, password);
        await expectHeading(page, 'Mon compte');
        const banner = page.getByTestId('site-banner');
        await banner.waitFor();
        await shoot(page, `banner_account_${width}`, { fullPage: false });
        const bannerBox = await box(banner);
        const header = page.locator('header').first();
        const headerBox = await box(header);
        // The header starts where the banner ends: nothing of it is covered, no gap between them.
        expect(Math.abs(headerBox.y - (bannerBox.y + bannerBox.height))).toBeLessThanOrEqual(1);
        // The page's title starts below the header, without a blank band in between.
        const title = await box(page.locator('h1').first());
        expect(title.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
        expect(title.y - (headerBox.y + headerBox.height)).toBeLessThan(64);
        expect(await isOnTop(header.getByTestId('notification-bell'))).toBe(true);
        expect(await isOnTop(header.getByTestId('current-user'))).toBe(true);

        if (width < 1280) {
          const menuButton = header.getByRole('button', { name: 'Ouvrir le menu' });
          expect(await isOnTop(menuButton)).toBe(true);
          await menuButton.click({ timeout: 2000 });
          const menu = page.getByRole('navigation', { name: 'Mon espace' });
          await menu.getByRole('link', { name: 'Mes paiements' }).click();
          await expectHeading(page, 'Mes paiements');
        } else {
          const logo = page.getByRole('navigation', { name: 'Mon espace' }).getByRole('link', {
            name: 'BotForge',
          });
          expect(await isOnTop(logo)).toBe(true);
          expect((await box(logo)).y).toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height);
        }

        // The public pages: the banner above the sticky bar, the brand and sign-in links uncovered.
        await page.goto('/');
        await banner.waitFor();
        await shoot(page, `banner_home_${width}`, { fullPage: false });
        const brand = page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', {
          name: 'BotForge',
        });
        expect(await isOnTop(brand)).toBe(true);
        await page.mouse.wheel(0, 600);
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
        expect(await isOnTop(brand)).toBe(true);
        expect(await blockingViolations(page)).toEqual([]);
        // The reader may put the announcement away; the header then starts at the top.
        await banner.getByRole('button', { name: 'Masquer l’annonce' }).click();
        await banner.waitFor({ state: 'detached' });
        await expect.poll(async () => (await box(page.locator('header').first())).y).toBeLessThanOrEqual(1);
        // Put away for this tab: a reload does not bring it back.
        const settingsRead = page.waitForResponse((response) => response.url().endsWith('/settings/public'));
        await page.reload();
        await settingsRead;
        await page.locator('h1').first().waitFor();
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        expect(await page.getByTestId('site-banner').count()).toBe(0);
        await close();
      }
    } finally {
      await setSettings(admin.token, { announcement: '' });
    }
  });
});
