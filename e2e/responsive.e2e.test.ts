import { WEB_ROUTES } from '@bot/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser();

/** `SCREENSHOT_DIR=/tmp/shots npx vitest run --project e2e responsive` keeps a picture of every page. */
const screenshotDir = process.env.SCREENSHOT_DIR;

/** How far the page runs past the window's right edge (0: nothing cut off, no sideways scrolling). */
async function overflow(page: Page, path: string, width: number): Promise<number> {
  await page.goto(path);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  if (screenshotDir) {
    const name = `${width}${path === '/' ? '_home' : path.replaceAll('/', '_')}.png`;
    await page.screenshot({ path: `${screenshotDir}/${name}`, fullPage: true });
  }
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('every page fits the window: phone, laptop, large screen', () => {
  for (const width of [390, 1440, 1920]) {
    it(`at ${width} px`, async () => {
      const admin = await shared.server.createUser({ isAdministrator: true });
      const { page, close } = await openPage(shared.browser, shared.server.url, {
        viewport: { width, height: 900 },
      });
      const found: string[] = [];
      for (const route of WEB_ROUTES.filter((entry) => entry.layout === 'landing')) {
        const extra = await overflow(page, route.path, width);
        if (extra > 0) found.push(`${route.path}: ${extra} px`);
      }
      await signInThroughForm(page, admin.user.username, admin.password);
      for (const route of WEB_ROUTES.filter((entry) => entry.layout !== 'landing')) {
        const path = route.path.replace(':id', admin.user.id);
        const extra = await overflow(page, path, width);
        if (extra > 0) found.push(`${path}: ${extra} px`);
      }
      await close();
      expect(found).toEqual([]);
    }, 120_000);
  }
});
