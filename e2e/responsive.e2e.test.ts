import { WEB_ROUTES, type WebRoute } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import {
  openPage,
  serverAndBrowser,
  signInThroughForm,
  visitInApp,
  type WatchedPage,
} from './support/browser.ts';

const shared = serverAndBrowser();

/** `SCREENSHOT_DIR=/tmp/shots npx vitest run --project e2e responsive` keeps a picture of every page. */
const screenshotDir = process.env.SCREENSHOT_DIR;

/** How far the page runs past the window's right edge (0: nothing cut off, no sideways scrolling). */
async function overflow(watched: WatchedPage, route: WebRoute, path: string, width: number): Promise<number> {
  const { page } = watched;
  await visitInApp(watched, path, path === '/' ? undefined : route.name);
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
      const watched = await openPage(shared.browser, shared.server.url, {
        viewport: { width, height: 900 },
      });
      const { page, close } = watched;
      await page.goto('/');
      const found: string[] = [];
      for (const route of WEB_ROUTES.filter((entry) => entry.layout === 'landing')) {
        const extra = await overflow(watched, route, route.path, width);
        if (extra > 0) found.push(`${route.path}: ${extra} px`);
      }
      await signInThroughForm(page, admin.user.username, admin.password);
      for (const route of WEB_ROUTES.filter((entry) => entry.layout !== 'landing')) {
        const path = route.path.replace(':id', admin.user.id);
        const extra = await overflow(watched, route, path, width);
        if (extra > 0) found.push(`${path}: ${extra} px`);
      }
      await close();
      expect(found).toEqual([]);
    }, 120_000);
  }
});
