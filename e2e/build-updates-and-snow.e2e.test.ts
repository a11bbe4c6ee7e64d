import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/test/harness.ts';
import {
  expectHeading,
  launchBrowser,
  openPage,
  readAuthState,
  signInThroughForm,
  WEB_DIST,
  waitForApp,
} from './support/browser.ts';

let server: TestServer;
let browser: Browser;
/** A private copy of the build: these tests change it (new build id, missing chunk). */
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  cpSync(WEB_DIST, dist, { recursive: true });
  [server, browser] = await Promise.all([startTestServer({ webDist: dist }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

/** A mark that only survives as long as the document does: gone means the page reloaded. */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __mark?: string }).__mark = 'same-document';
  });
}
const readMark = (page: Page) =>
  page.evaluate(() => (window as unknown as { __mark?: string }).__mark ?? null);

describe('snow', () => {
  it('falls when the isSnow setting is on, and stops when it is off', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    const setSnow = (isSnow: boolean) =>
      fetch(`${server.api}/admin/settings`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ isSnow }),
      });
    const { page, errors, close } = await openPage(browser, server.url);

    expect((await setSnow(true)).status).toBe(200);
    await page.goto('/');
    await page.getByTestId('snow').waitFor({ state: 'attached' });
    expect((await readAuthState(page))?.isSnow).toBe(true);

    // A decoration for visitors and customers: never over the admin area and its map.
    await signInThroughForm(page, admin.user.username, admin.password, '/admin');
    await page.goto('/admin/map');
    await page.getByTestId('map-connection').waitFor();
    expect(await page.getByTestId('snow').count()).toBe(0);
    await page.goto('/');
    await page.getByTestId('snow').waitFor({ state: 'attached' });

    expect((await setSnow(false)).status).toBe(200);
    await page.reload();
    await expect.poll(async () => (await readAuthState(page))?.isSnow).toBe(false);
    expect(await page.getByTestId('snow').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});

describe('build updates', () => {
  it('reloads once when the server announces a newer build, then respects the 10 s guard', async () => {
    const { page, errors, close } = await openPage(browser, server.url);
    await page.goto('/started');
    await expectHeading(page, 'Bien démarrer');
    await waitForApp(page); // the prerendered copy checks no build
    await markDocument(page);

    const buildFile = path.join(dist, 'build.json');
    const original = readFileSync(buildFile, 'utf8');
    writeFileSync(buildFile, JSON.stringify({ buildId: 'a-newer-build' }));
    // The app checks on every return to the tab, and at the configured interval.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect.poll(() => readMark(page), { timeout: 10_000 }).toBeNull();
    await expectHeading(page, 'Bien démarrer');
    const guardSetAt = await page.evaluate(() => sessionStorage.getItem('reload-guard-at'));
    expect(Number(guardSetAt)).toBeGreaterThan(Date.now() - 60_000);

    // Still "newer" than the running bundle: within 10 s the guard keeps the page from reloading again.
    await markDocument(page);
    const refused = page.waitForEvent('console', (message) => message.text().includes('Rechargement ignoré'));
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await refused; // the app saw the newer build and its guard said no
    expect(await readMark(page)).toBe('same-document');
    writeFileSync(buildFile, original);
    expect(errors).toEqual([]);
    await close();
  });

  it('reloads when a lazy chunk is gone, and shows the error view if it is still missing', async () => {
    const chunk = readdirSync(path.join(dist, 'assets')).find((name) => name.startsWith('started-page-'));
    expect(chunk).toBeDefined();
    unlinkSync(path.join(dist, 'assets', chunk!));

    // No service worker here: its precache would still hold the removed chunk.
    const { page, errors, close } = await openPage(browser, server.url, { blockServiceWorkers: true });
    await page.goto('/');
    await markDocument(page);
    await page.getByRole('link', { name: 'Bien démarrer' }).first().click();
    await expect.poll(() => readMark(page), { timeout: 10_000 }).toBeNull();

    // Second failure within the guard window: no reload loop, the error view instead.
    await expectHeading(page, 'Votre bot travaille, vous gardez la main');
    await page.getByRole('link', { name: 'Bien démarrer' }).first().click();
    await page.getByTestId('error-status').waitFor();
    expect(await page.getByTestId('error-status').textContent()).toBe('500');
    await expectHeading(page, 'Internal Server Error');
    expect(await page.getByTestId('error-description').textContent()).toContain('nouvelle version');
    expect(
      errors.filter((error) => !/status of 404|dynamically imported module|started-page/i.test(error)),
    ).toEqual([]);
    await close();
  });
});
