import { WEB_ROUTES } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { blockingViolations } from './support/accessibility.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser();

/** `SCREENSHOT_DIR=/tmp/shots npx vitest run --project e2e prerender` keeps what the tests saw. */
const screenshotDir = process.env.SCREENSHOT_DIR;

const PUBLIC = WEB_ROUTES.filter((route) => route.layout === 'landing');
const HEADINGS: Record<string, string | RegExp> = {
  '/': /./,
  '/login': 'Connexion',
  '/register': 'Inscription',
  '/forgot-password': 'Mot de passe oublié',
  '/started': 'Bien démarrer',
};

describe('the public pages are prerendered: they paint without any script', () => {
  it('shows each public page, styled, with JavaScript off (390 and 1440 px)', async () => {
    for (const [width, height] of [
      [390, 844],
      [1440, 900],
    ] as const) {
      const context = await shared.browser.newContext({
        baseURL: shared.server.url,
        viewport: { width, height },
        javaScriptEnabled: false,
        locale: 'fr-FR',
      });
      const page = await context.newPage();
      for (const route of PUBLIC) {
        const response = await page.goto(route.path);
        expect(response?.status()).toBe(200);
        expect(await page.locator('#root[data-prerendered]').count()).toBe(1);
        const heading = page.locator('h1').first();
        await heading.waitFor();
        const expected = HEADINGS[route.path]!;
        const text = (await heading.textContent()) ?? '';
        if (typeof expected === 'string') expect(text, route.path).toBe(expected);
        else expect(text, route.path).toMatch(expected);
        expect(await page.title()).toBe(route.path === '/' ? 'BotForge' : `${route.name} · BotForge`);
        // Styled by the inlined stylesheet (and MUI's styles for the forms): the dark theme, the sticky bar.
        const header = await page
          .locator('header')
          .first()
          .evaluate((element) => getComputedStyle(element).position);
        expect(header).toBe('sticky');
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
        // Its forms wait for the app: nothing typed into the static copy, no GET submission.
        for (const input of await page.locator('main input').all())
          expect(await input.getAttribute('readonly')).not.toBeNull();
        for (const button of await page.locator('main button[type="submit"]').all())
          expect(await button.isDisabled()).toBe(true);
        if (screenshotDir) {
          const name = route.path === '/' ? 'home' : route.path.slice(1);
          await page.screenshot({ path: `${screenshotDir}/prerendered-nojs_${name}_${width}.png` });
        }
      }
      await context.close();
    }
  });

  it('starts the app over the prerendered page without errors, and the form works', async () => {
    const { user, password } = await shared.server.createUser();
    const { page, errors, close } = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 1440, height: 900 },
    });
    for (const route of PUBLIC) {
      await page.goto(route.path);
      // The app took over: its effects ran (the document title is set by the page itself).
      await page.locator('#root:not([data-prerendered])').waitFor({ state: 'attached' });
      // The app's header renders in the commit after the takeover: wait for it, then count.
      await page.locator('#root header').first().waitFor();
      expect(await page.locator('#root header').count()).toBe(1);
      expect(await blockingViolations(page), route.path).toEqual([]);
    }
    await signInThroughForm(page, user.username, password);
    await expectHeading(page, 'Mon compte');
    expect(errors).toEqual([]);
    await close();
  });
});
