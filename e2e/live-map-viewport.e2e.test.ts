import type { BotStatus } from '@bot/contracts';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../apps/server/test/harness.ts';
import { account } from '../apps/server/test/helpers/realtime.ts';
import { type LiveBot, openAdminMap, readCount, startLiveBot } from './live-helpers.ts';
import { listedBots, lookAt, pagePointOf } from './map-reading.ts';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

// Any fleet of more than one bot is "large" here: the map and the dashboard follow the viewport feed;
// a zoomed-in area gets two bots one by one, counts beyond.
const shared = serverAndBrowser({
  realtime: { adminFlushMs: 100, mapCellsMs: 300, fullFeedMaxBots: 1, mapMaxStates: 2 },
});
const bots: LiveBot[] = [];
// Registered after serverAndBrowser: runs before the server closes (after-hooks run in reverse).
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

/** A bot whose one game account stands still at (x, y). */
async function botAt(server: TestServer, x: number, y: number, status: BotStatus = 'gathering') {
  const bot = await startLiveBot(server);
  bots.push(bot);
  bot.client.report({
    accounts: [account(bot.accounts[0] as string, { status, position: { mapId: 1, x, y } })],
  });
  return bot.hwid;
}

/** Centres the map on (x, y) at about `scale` pixels per map cell, with the wheel and a drag. */
async function look(page: Page, x: number, y: number, scale: number): Promise<void> {
  await lookAt(page, x, y, scale);
}

/** Puts the mouse over the map point (x, y). */
async function hoverWorld(page: Page, x: number, y: number) {
  const over = await pagePointOf(page, x, y);
  await page.mouse.move(over.x, over.y);
}

/** The tooltip over a world position, hovered afresh (the cells may come a frame after the counts). */
async function tooltipAt(page: Page, x: number, y: number): Promise<string | null> {
  await page.mouse.move(0, 0);
  await hoverWorld(page, x, y);
  return page.getByTestId('map-tooltip').textContent();
}

/** Of `hwids`, the bots the page holds (no filter is on: every held account is listed). */
const heldOnMap = (page: Page, hwids: string[]) => listedBots(page, hwids);

describe('/admin/map on a large fleet (viewport feed, decision 206)', () => {
  it('holds only the bots in view, brings others when panning, counts from the nodes when zoomed out', async () => {
    const west = [await botAt(shared.server, -30, -30), await botAt(shared.server, -28, -31, 'fighting')];
    const east = await botAt(shared.server, 35, 35, 'error');

    const { page, errors, close } = await openAdminMap(shared);
    await expect.poll(() => readCount(page, 'map-online-count'), { timeout: 5_000 }).toBe(3);

    // Zoomed in on the west: its two bots are held, the east one is not even sent.
    await look(page, -29, -30, 40);
    await expect.poll(() => heldOnMap(page, [...west, east]), { timeout: 5_000 }).toEqual(west);
    expect(await readCount(page, 'map-accounts-count')).toBe(2);

    // Panning east brings the east bot and lets the west ones go.
    await look(page, 35, 35, 40);
    await expect.poll(() => heldOnMap(page, [...west, east]), { timeout: 5_000 }).toEqual([east]);

    // Zoomed out, the nodes count: every account, none of them held in the page.
    await look(page, 0, 0, 2);
    await expect.poll(() => readCount(page, 'map-accounts-count'), { timeout: 5_000 }).toBe(3);
    expect(await heldOnMap(page, [...west, east])).toEqual([]);
    await expect.poll(() => tooltipAt(page, 35, 35), { timeout: 5_000 }).toContain('1 compte de jeu');

    // The status filter goes to the hub: only the fighting account is counted.
    await page.getByRole('button', { name: 'Combat' }).click();
    await expect.poll(() => readCount(page, 'map-accounts-count'), { timeout: 5_000 }).toBe(1);
    expect(errors).toEqual([]);
    await close();
  });

  it('zoomed in on more bots than the hub sends one by one: clusters until the map narrows', async () => {
    const { page, errors, close } = await openAdminMap(shared);
    await expect.poll(() => readCount(page, 'map-online-count'), { timeout: 5_000 }).toBe(3);

    // Zoomed in past the cluster threshold, the area still holds all three bots: counted, none held.
    await look(page, 0, 0, 6);
    await expect.poll(() => readCount(page, 'map-accounts-count'), { timeout: 5_000 }).toBe(3);
    expect(await readCount(page, 'map-shown-accounts-count')).toBe(0);
    await expect.poll(() => tooltipAt(page, 35, 35), { timeout: 5_000 }).toContain('1 compte de jeu');

    // Closer on the west: two bots, each drawn.
    await look(page, -29, -30, 40);
    await expect.poll(() => readCount(page, 'map-shown-accounts-count'), { timeout: 5_000 }).toBe(2);
    expect(await readCount(page, 'map-accounts-count')).toBe(2);
    expect(errors).toEqual([]);
    await close();
  });

  it('the dashboard counts the accounts online from the nodes’ totals', async () => {
    const admin = await shared.server.createUser({ isAdministrator: true });
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, admin.user.username, admin.password);
    await page.goto('/admin');
    await expect.poll(() => readCount(page, 'dashboard-accounts-online'), { timeout: 10_000 }).toBe(3);
    expect(errors).toEqual([]);
    await close();
  });
});
