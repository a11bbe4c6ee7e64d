import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { type LiveBot, startLiveBot } from './live-helpers.ts';
import { blockingViolations } from './support/accessibility.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

const shared = serverAndBrowser({ realtime: { adminFlushMs: 100, botUpdatesPerSecond: 50 } });
const bots: LiveBot[] = [];
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

const PHONE = { width: 390, height: 844 };

/** The element lies wholly inside the window's width (nothing of it cut off on the right). */
async function isWithinWidth(target: Locator, page: Page): Promise<boolean> {
  const box = await target.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.width > 0 && box.x >= 0 && box.x + box.width <= width;
}

/** How many lines the element's text takes (1: it did not break). */
const lineCount = (target: Locator) =>
  target.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });

const overflowPx = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** A customer with a live bot and a pending order for a package. */
async function customerWithBotAndOrder(): Promise<LiveBot> {
  const call = apiClient(shared.server);
  const staff = await shared.server.createUser({ permissions: ['can_managePackages'] });
  const created = await call<{ data: { id: string } }>(
    'POST',
    '/admin/packages',
    {
      name: 'Pack Complet Saison',
      description: 'Récolte et chasse au trésor.',
      priceCents: 1990,
      durationDays: 30,
      grants: ['can_useGathering', 'can_useTreasure'],
      whitelistSlots: 3,
    },
    staff.token,
  );
  expect(created.status).toBe(201);
  const bot = await startLiveBot(shared.server, { accounts: 2 });
  bots.push(bot);
  const order = await call('POST', '/me/orders', { packageId: created.body.data.id }, bot.owner.token);
  expect(order.status).toBe(201);
  return bot;
}

describe('lists on a phone (390 px) become cards, wide tables say they scroll', () => {
  it('"Mes paiements": status, amount and buttons of an order on screen, its number on one line', async () => {
    const bot = await customerWithBotAndOrder();
    const { page, close } = await openPage(shared.browser, shared.server.url, {
      viewport: PHONE,
      blockServiceWorkers: true,
    });
    await signInThroughForm(page, bot.owner.user.username, bot.owner.password);
    await page.goto('/account/payments');
    await expectHeading(page, 'Mes paiements');
    const card = page.getByTestId('order-row').first();
    await card.waitFor();
    await shoot(page, 'phone_payments');
    expect(await isWithinWidth(card.getByText('En attente'), page)).toBe(true);
    expect(await isWithinWidth(card.getByTestId('order-amount'), page)).toBe(true);
    expect(await isWithinWidth(card.getByRole('link', { name: 'Payer' }), page)).toBe(true);
    // Not paid yet: nothing to give a receipt for.
    expect(await card.getByRole('button', { name: 'Reçu' }).count()).toBe(0);
    expect(await lineCount(card.getByText(/^CMD-/))).toBe(1);
    expect(await overflowPx(page)).toBe(0);

    // "Mon bot": each live account as a card, its status and position visible.
    await page.goto('/account/mybot');
    await expectHeading(page, 'Mon bot');
    const account = page.getByTestId(`mybot-account-${bot.accounts[0]}`);
    await account.waitFor({ timeout: 10_000 });
    await shoot(page, 'phone_mybot');
    expect(await isWithinWidth(account.locator('[data-status]').last(), page)).toBe(true);
    expect(await isWithinWidth(account.getByTestId('mybot-position'), page)).toBe(true);
    expect(await overflowPx(page)).toBe(0);
    expect(await blockingViolations(page)).toEqual([]);
    await close();
  });

  it('"Utilisateurs en ligne": who and the kick button on screen for a connected bot', async () => {
    const bot = await startLiveBot(shared.server);
    bots.push(bot);
    const admin = await shared.server.createUser({ isAdministrator: true });
    const { page, close } = await openPage(shared.browser, shared.server.url, {
      viewport: PHONE,
      blockServiceWorkers: true,
    });
    await signInThroughForm(page, admin.user.username, admin.password);
    await page.goto('/admin/usersOnline');
    await expectHeading(page, 'Utilisateurs en ligne');
    const kick = page.getByRole('button', { name: `Déconnecter le bot ${bot.hwid}` });
    await kick.waitFor({ timeout: 10_000 });
    await shoot(page, 'phone_users-online');
    expect(await isWithinWidth(kick, page)).toBe(true);
    const botGrid = page.getByRole('grid', { name: 'Bots connectés' });
    expect(await isWithinWidth(botGrid.getByRole('gridcell', { name: bot.owner.user.username }), page)).toBe(
      true,
    );
    const sessions = page.getByRole('grid', { name: 'Sessions web' });
    const revoke = sessions
      .getByRole('button', { name: `Fermer la session de ${admin.user.username}` })
      .first();
    expect(await isWithinWidth(revoke, page)).toBe(true);
    expect(await overflowPx(page)).toBe(0);
    await close();
  });

  it('the live table on a laptop: a keyboard-reachable scroll region that says when it scrolls', async () => {
    const bot = await startLiveBot(shared.server, { accounts: 2 });
    bots.push(bot);
    const { page, close } = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 1440, height: 900 },
      blockServiceWorkers: true,
    });
    await signInThroughForm(page, bot.owner.user.username, bot.owner.password);
    await page.goto('/account/mybot');
    await expectHeading(page, 'Mon bot');
    await page.getByTestId(`mybot-account-${bot.accounts[0]}`).waitFor({ timeout: 10_000 });
    // Until the live connection is up the header says "État du bot inconnu": audit the settled page.
    await page.locator('[data-testid="mybot-online"][data-online="true"]').waitFor({ timeout: 10_000 });
    const region = page.getByRole('region', { name: 'Comptes de jeu en direct' });
    expect(await region.getAttribute('tabindex')).toBe('0');
    // Coordinates never wrap while the row has room.
    expect(await lineCount(page.getByTestId('mybot-position').first())).toBe(1);
    await shoot(page, 'laptop_mybot');
    expect(await blockingViolations(page)).toEqual([]);

    // Narrow enough for the table to overflow: the cue appears, the arrow keys scroll it.
    await page.setViewportSize({ width: 700, height: 900 });
    await page.locator('[data-testid="scroll-table"][data-overflows="true"]').waitFor();
    await page.getByTestId('scroll-cue').waitFor();
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    await close();
  });
});
