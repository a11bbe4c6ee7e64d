import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/harness.ts';
import { type LiveBot, readCount, startLiveBot } from './live-helpers.ts';
import { launchBrowser, openPage, signInThroughForm, WEB_DIST } from './support/browser.ts';

/**
 * Operations issue, defect 7: a graceful server restart under an open admin map. The server closes
 * every socket ("io server disconnect"); the page must say it is offline, reconnect by itself,
 * resync from a fresh snapshot and go on live, without a reload. The bot agent SDK comes back too.
 */
let server: TestServer;
let browser: Browser;
const bots: LiveBot[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startTestServer({ webDist: WEB_DIST, openDatabaseFromConfig: true, realtime: { adminFlushMs: 100 } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
  await browser?.close();
  await server?.close();
});

describe('a server restart under an open admin map', () => {
  it('shows the offline notice, reconnects, resyncs and stays live without a reload', async () => {
    bots.push(await startLiveBot(server, { accounts: 2 }));
    const admin = await server.createUser({ permissions: ['can_manageMap'] });
    const { page, errors, close } = await openPage(browser, server.url);
    // Staff who may enter the admin area land there after signing in (experience issue).
    await signInThroughForm(page, admin.user.username, admin.password, '/admin');
    await page.goto('/admin/map');
    const connected = page.locator('[data-testid="map-connection"][data-state="connected"]');
    await connected.waitFor({ timeout: 10_000 });
    await expect.poll(() => readCount(page, 'map-accounts-count'), { timeout: 5_000 }).toBe(2);
    // A marker that a reload would wipe.
    await page.evaluate(() => Object.assign(window, { __beforeRestart: true }));

    await server.restart(async () => {
      await page.getByTestId('live-offline').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('live-offline').getAttribute('role')).toBe('status');
    });

    await connected.waitFor({ timeout: 20_000 });
    await page.getByTestId('live-offline').waitFor({ state: 'detached', timeout: 10_000 });
    // The bot agent reconnected by itself and the page sees it from the new snapshot.
    await expect.poll(() => readCount(page, 'map-online-count'), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => readCount(page, 'map-accounts-count'), { timeout: 5_000 }).toBe(2);
    // Live updates flow on the new connection: a bot that starts now appears.
    bots.push(await startLiveBot(server, { accounts: 1 }));
    await expect.poll(() => readCount(page, 'map-accounts-count'), { timeout: 10_000 }).toBe(3);
    expect(await page.evaluate(() => (window as { __beforeRestart?: boolean }).__beforeRestart)).toBe(true);
    expect(errors.filter((error) => !error.includes('WebSocket'))).toEqual([]);
    await close();
  });
});
