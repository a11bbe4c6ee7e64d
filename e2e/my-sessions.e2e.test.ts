import { describeUserAgent } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser();

/** `SCREENSHOT_DIR=/tmp/shots npx vitest run --project e2e my-sessions` keeps the card at each width. */
const screenshotDir = process.env.SCREENSHOT_DIR;

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** Issue 30: the customer's own sessions on /account, in the words staff see on the user page. */
describe('my sessions on /account', () => {
  for (const width of [390, 1440]) {
    it(`lists them with this one marked, signs out one and then all the others (${width} px)`, async () => {
      const call = apiClient(shared.server);
      const owner = await shared.server.createUser();
      const firefox = await call<{ token: string }>(
        'POST',
        '/auth/login',
        { username: owner.user.username, password: owner.password },
        undefined,
        { 'user-agent': FIREFOX_LINUX },
      );
      const { page, errors, close } = await openPage(shared.browser, shared.server.url, {
        viewport: { width, height: 900 },
      });
      await signInThroughForm(page, owner.user.username, owner.password, '/account');
      await expectHeading(page, 'Mon compte');
      const card = page.getByRole('region', { name: 'Sessions ouvertes' });
      const items = card.getByRole('list', { name: 'Sessions ouvertes' }).getByRole('listitem');
      await expect.poll(() => items.count()).toBe(3);
      const browserWords = describeUserAgent(await page.evaluate(() => navigator.userAgent));
      const current = items.filter({ hasText: 'Cette session' });
      await expect.poll(() => current.count()).toBe(1);
      expect(await current.textContent()).toContain(browserWords);
      await card.getByText('Firefox sur Linux').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      if (screenshotDir) {
        // The window scrolled to the card (a full-page picture would paint the sticky bar mid-page).
        await card.evaluate((element) => element.scrollIntoView({ block: 'start' }));
        await page.screenshot({ path: `${screenshotDir}/${width}_account_sessions.png` });
      }

      await items
        .filter({ hasText: 'Firefox sur Linux' })
        .getByRole('button', { name: 'Déconnecter' })
        .click();
      await page.getByRole('dialog').getByRole('button', { name: 'Déconnecter' }).click();
      await expect.poll(() => items.count()).toBe(2);
      expect((await call('GET', '/me/info', undefined, firefox.body.token)).status).toBe(401);

      await card.getByRole('button', { name: 'Déconnecter les autres sessions' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Déconnecter' }).click();
      await expect.poll(() => items.count()).toBe(1);
      expect((await call('GET', '/me/info', undefined, owner.token)).status).toBe(401);
      expect(await items.first().textContent()).toContain('Cette session');
      expect(errors).toEqual([]);
      await close();

      // Staff read the same words on the user page.
      const admin = await shared.server.createUser({ isAdministrator: true });
      const staff = await openPage(shared.browser, shared.server.url);
      await signInThroughForm(staff.page, admin.user.username, admin.password, /^\/admin/);
      await staff.page.goto(`/admin/users/${owner.user.id}`);
      await staff.page.getByRole('table', { name: 'Sessions' }).getByText('Firefox sur Linux').waitFor();
      await staff.page.getByRole('table', { name: 'Sessions' }).getByText(browserWords).first().waitFor();
      await staff.close();
    });
  }
});
