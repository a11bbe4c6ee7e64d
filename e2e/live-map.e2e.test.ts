import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { type LiveBot, openAdminMap, readCount, startLiveBot } from './live-helpers.ts';
import {
  lookAt,
  pagePointOf,
  readAreas,
  readListedAccounts,
  readMapView,
  settledView,
} from './map-reading.ts';
import { openPage, serverAndBrowser, signInThroughForm, WEB_DIST } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

const shared = serverAndBrowser({ realtime: { adminFlushMs: 100, offlineTimeoutMs: 3_000 } });
const bots: LiveBot[] = [];

// Registered after serverAndBrowser: runs before the server closes (after-hooks run in reverse).
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

describe('/admin/map live', () => {
  it('shows exactly the simulated accounts online, follows moves and a disconnection', async () => {
    // 6 bots, 1 to 3 game accounts each: 12 accounts.
    const sizes = [1, 2, 3, 1, 2, 3];
    for (const accounts of sizes) bots.push(await startLiveBot(shared.server, { accounts }));
    const expected = sizes.reduce((sum, n) => sum + n, 0);

    const { page, errors, close } = await openAdminMap(shared);
    await expect.poll(() => readCount(page, 'map-accounts-count'), { timeout: 5_000 }).toBe(expected);
    await expect.poll(() => readCount(page, 'map-online-count'), { timeout: 5_000 }).toBe(sizes.length);
    // Drawn on one canvas, not one element per bot.
    expect(await page.locator('[data-testid="map-canvas"]').count()).toBe(1);

    // Moves arrive as batches: after each round every account is drawn where its bot reported it.
    for (let round = 0; round < 3; round++) {
      const reported = bots.map((bot) => ({
        hwid: bot.hwid,
        positions: bot.tick().accounts.map((account) => [account.position.x, account.position.y]),
      }));
      const isDrawnAsReported = async () => {
        const listed = await readListedAccounts(page);
        return reported.every(({ hwid, positions }) =>
          positions.every(([x, y]) =>
            listed.some((account) => account.hwid === hwid && account.x === x && account.y === y),
          ),
        );
      };
      await expect.poll(isDrawnAsReported, { timeout: 5_000 }).toBe(true);
    }
    expect(await readCount(page, 'map-accounts-count')).toBe(expected);

    // Hovering an account shows its owner, hwid, character and status; clicking opens the panel.
    const target = bots[2]!;
    const first = (await readListedAccounts(page)).find((account) => account.hwid === target.hwid)!;
    await lookAt(page, first.x, first.y, 12);
    const over = await pagePointOf(page, first.x, first.y);
    const box = (await page.getByTestId('map-canvas').boundingBox())!;
    await page.mouse.move(0, 0);
    await page.mouse.move(over.x, over.y);
    const tooltip = page.getByTestId('map-tooltip');
    await tooltip.waitFor({ state: 'visible' });
    const text = (await tooltip.textContent()) ?? '';
    expect(text).toContain(target.owner.user.username);
    expect(text).toContain('HWID');
    await page.mouse.click(over.x, over.y);
    const panel = page.getByTestId('map-panel');
    await panel.waitFor();
    expect(await panel.getAttribute('data-hwid')).toBe(target.hwid);

    // Owner filter: only that owner's accounts stay shown.
    await page.getByTestId('map-owner-filter').fill(target.owner.user.username);
    await expect
      .poll(() => readCount(page, 'map-shown-accounts-count'), { timeout: 3_000 })
      .toBe(target.accounts.length);
    await page.getByTestId('map-owner-filter').fill('');

    // Wheel zooms around the cursor, dragging pans, zooming far out groups accounts into clusters.
    const view = () => readMapView(page);
    const before = await settledView(page);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    await expect.poll(async () => (await view()).scale).toBeGreaterThan(before.scale);
    const zoomed = await view();
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await view()).cx).toBeLessThan(zoomed.cx);
    for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 400);
    await expect.poll(async () => (await view()).scale).toBeLessThan(5);
    expect((await view()).isClustered).toBe(true);

    // Buttons, keys and two fingers do what the wheel and the mouse do.
    await page.getByRole('button', { name: 'Tout voir' }).click();
    const fitted = await settledView(page);
    await page.getByRole('button', { name: 'Zoomer', exact: true }).click();
    await expect.poll(async () => (await view()).scale).toBeGreaterThan(fitted.scale);
    await page.getByRole('button', { name: 'Dézoomer' }).click();
    await expect.poll(async () => (await view()).scale).toBeCloseTo(fitted.scale, 6);
    await page.getByTestId('map-region').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await view()).cx).toBeGreaterThan(fitted.cx);
    await page.keyboard.press('+');
    await expect.poll(async () => (await view()).scale).toBeGreaterThan(fitted.scale);
    const beforePinch = await view();
    await pinchOpen(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    await expect.poll(async () => (await view()).scale).toBeGreaterThan(beforePinch.scale);
    await page.getByText('Légende').waitFor();

    // A bot that stops disappears from the map and the counts.
    const leaving = bots[1]!;
    await leaving.stop();
    await expect
      .poll(() => readCount(page, 'map-accounts-count'), { timeout: 6_000 })
      .toBe(expected - leaving.accounts.length);
    await expect.poll(() => readCount(page, 'map-online-count'), { timeout: 6_000 }).toBe(sizes.length - 1);
    await page.screenshot({ path: '/tmp/live-map.png' });
    expect(errors).toEqual([]);
    await close();
  });

  it('names the zones on the map and keeps the legend off it, at 390 and 1440 px', async () => {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1440, height: 900 },
    ]) {
      const { page, errors, close } = await openAdminMap(shared, viewport);
      await expect
        .poll(async () => (await readAreas(page)).filter((area) => area.label).length)
        .toBeGreaterThan(0);
      const areas = await readAreas(page);
      const canvas = (await page.getByTestId('map-canvas').boundingBox())!;
      const painted = {
        labels: areas.flatMap(({ name, label }) => (label ? [{ name, ...label }] : [])),
        width: canvas.width,
        height: canvas.height,
      };
      const zones = areas.map((area) => area.name);
      // Wide enough, every zone carries its name; on a phone, those whose zone holds it.
      expect(painted.labels.length).toBeGreaterThanOrEqual(viewport.width > 1000 ? zones.length : 1);
      for (const label of painted.labels) {
        expect(zones).toContain(label.name);
        expect(label.x).toBeGreaterThanOrEqual(0);
        expect(label.x).toBeLessThanOrEqual(painted.width);
        expect(label.y).toBeGreaterThanOrEqual(0);
        expect(label.y).toBeLessThanOrEqual(painted.height);
      }
      // The legend is beside the drawing, not over it (it hid the bots of its corner).
      const map = (await page.getByTestId('map-region').boundingBox())!;
      const legend = (await page.getByTestId('map-legend').boundingBox())!;
      expect(legend.y).toBeGreaterThanOrEqual(map.y + map.height);
      expect(await page.getByTestId('map-legend').getAttribute('open')).toBe(
        viewport.width > 1000 ? '' : null,
      );
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(wide).toBe(false);
      await shoot(page, `live-map-${viewport.width}`);
      expect(errors).toEqual([]);
      await close();
    }
  });

  it('ships the map’s benchmark instruments only in the instrumented build, not in production', async () => {
    // bench/map builds with `--mode instrumented`; this is the production bundle the journeys run.
    const scripts = (await readdir(WEB_DIST, { recursive: true })).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const instrumented = [];
    for (const script of scripts)
      if ((await readFile(join(WEB_DIST, script), 'utf8')).includes('__adminMap')) instrumented.push(script);
    expect(instrumented).toEqual([]);
    const { page, close } = await openAdminMap(shared);
    expect(await page.evaluate(() => '__adminMap' in window)).toBe(false);
    await close();
  });

  it('refuses the live feed to a staff member without can_manageMap (page kept out)', async () => {
    const staff = await shared.server.createUser({ permissions: ['can_manageUsers'] });
    const { page, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, staff.user.username, staff.password);
    await page.goto('/admin/map');
    await page.waitForURL((url) => url.pathname !== '/admin/map', { timeout: 10_000 });
    await close();
  });
});

/** Two fingers spreading apart around `centre`, through Chromium's own touch input (real pointer events). */
async function pinchOpen(page: Page, centre: { x: number; y: number }): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const fingers = (gap: number) => [
    { x: centre.x - gap, y: centre.y, id: 1 },
    { x: centre.x + gap, y: centre.y, id: 2 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(30) });
  for (const gap of [50, 80, 120]) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(gap) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}
