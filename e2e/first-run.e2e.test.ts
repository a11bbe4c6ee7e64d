import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { type LiveBot, startLiveBot } from './live-helpers.ts';
import { blockingViolations } from './support/accessibility.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

const shared = serverAndBrowser();
const bots: LiveBot[] = [];
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

const step = (page: Page, id: string) => page.getByTestId(`first-run-${id}`);
const isDone = async (page: Page, id: string) => (await step(page, id).getAttribute('data-done')) === 'true';

describe('"Mon bot" first run: a checklist with its actions and live state', () => {
  it('copies the key, whitelists an account inline, and turns green by itself when the bot connects', async () => {
    const call = apiClient(shared.server);
    const staff = await shared.server.createUser({ permissions: ['can_managePackages'] });
    const pkg = await call<{ data: { id: string } }>(
      'POST',
      '/admin/packages',
      {
        name: 'Pack Découverte',
        priceCents: 990,
        durationDays: 30,
        grants: ['can_useGathering', 'can_useTreasure'],
        whitelistSlots: 2,
      },
      staff.token,
    );
    const owner = await shared.server.createUser();
    const order = await call<{ data: { id: string } }>(
      'POST',
      '/me/orders',
      { packageId: pkg.body.data.id },
      owner.token,
    );
    await call('POST', `/payments/sandbox/${order.body.data.id}/succeed`, undefined, owner.token);

    for (const [width, height] of [
      [390, 844],
      [1440, 900],
    ] as const) {
      const { page, context, close } = await openPage(shared.browser, shared.server.url, {
        viewport: { width, height },
        blockServiceWorkers: true,
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await signInThroughForm(page, owner.user.username, owner.password);
      await page.goto('/account/mybot');
      await expectHeading(page, 'Mon bot');
      await page.getByTestId('mybot-first-run').waitFor();
      // No build published yet: the step says why instead of a dead button.
      await page.getByTestId('first-run-no-release').waitFor();
      expect(await isDone(page, 'connection')).toBe(false);
      await shoot(page, `first-run_${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect(await blockingViolations(page)).toEqual([]);
      // Step titles read as strongly as their text (not greyer).
      const [titleColor, textColor] = await step(page, 'connection').evaluate((element) => [
        getComputedStyle(element.querySelector('h3')!).color,
        getComputedStyle(element.querySelector('p')!).color,
      ]);
      expect(titleColor).not.toBe(textColor);
      await close();
    }

    const { page, context, errors, close } = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 1440, height: 900 },
      blockServiceWorkers: true,
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInThroughForm(page, owner.user.username, owner.password);
    await page.goto('/account/mybot');
    await page.getByTestId('mybot-first-run').waitFor();

    // The key, copied right there.
    expect(await isDone(page, 'key')).toBe(false);
    await page.getByRole('button', { name: 'Copier ma clé d’accès' }).click();
    await page.locator('[data-testid="first-run-key"][data-done="true"]').waitFor();
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key.body.data.accessKey);

    // A game account, added without leaving the page.
    const form = page.getByRole('form', { name: 'Ajouter un compte de jeu' });
    await form.getByLabel('Nom du compte de jeu').fill('Sadida-Vert');
    await form.getByRole('button', { name: 'Ajouter' }).click();
    await page.locator('[data-testid="first-run-whitelist"][data-done="true"]').waitFor();
    expect(await step(page, 'whitelist').textContent()).toContain('1 / 2');

    // A real bot (the SDK) connects with that key: the last step turns green by itself.
    const bot = await startLiveBot(shared.server, { owner });
    bots.push(bot);
    await page.locator('[data-testid="first-run-connection"][data-done="true"]').waitFor({ timeout: 10_000 });
    const icon = step(page, 'connection').getByTestId('first-run-done-icon');
    const green = await icon.evaluate((element) => getComputedStyle(element).color);
    const [red, greenPart] = green.match(/\d+/g)!.map(Number) as [number, number];
    expect(greenPart).toBeGreaterThan(red);
    expect(await isDone(page, 'download')).toBe(true); // the bot runs: it was downloaded
    await page.getByTestId(`mybot-account-${bot.accounts[0]}`).waitFor({ timeout: 10_000 });
    await shoot(page, 'first-run_connected_1440');
    await page.getByRole('button', { name: 'Masquer ces étapes' }).click();
    expect(await page.getByTestId('mybot-first-run').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});

describe('the staff dashboard says what blocks customers', () => {
  it('no published build, no package on sale, maintenance on: each with a link to fix it', async () => {
    const admin = await shared.server.createUser({ isAdministrator: true });
    const { page, close } = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 1440, height: 900 },
      blockServiceWorkers: true,
    });
    await signInThroughForm(page, admin.user.username, admin.password, '/admin');
    await expectHeading(page, 'Administration');
    // The first test put one package on sale; no build was ever published here.
    const release = page.getByTestId('blocker-no-release');
    await release.waitFor();
    expect(await page.getByTestId('blocker-no-package').count()).toBe(0);
    await shoot(page, 'dashboard-blockers_1440');
    await release.getByRole('link', { name: 'Publier une version' }).click();
    await expectHeading(page, 'Versions du bot');
    await close();
  });
});
