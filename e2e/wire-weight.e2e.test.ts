import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, serverAndBrowser, WEB_DIST } from './support/browser.ts';

/**
 * Performance issue, part 1: what a visitor downloads, measured by Chromium over the wire. The
 * landing page's JavaScript must stay within 170 KB as sent (it was 503 KB uncompressed).
 */
const LANDING_JS_BUDGET_BYTES = 170 * 1024;
const shared = serverAndBrowser();

describe('bytes over the wire', () => {
  it('the landing page’s JavaScript arrives compressed and within budget', async () => {
    const { page, close } = await openPage(shared.browser, shared.server.url, { blockServiceWorkers: true });
    const encodings: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js'))
        encodings.push(response.headers()['content-encoding'] ?? 'identity');
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => ({
          url: entry.name,
          wire: (entry as PerformanceResourceTiming).encodedBodySize,
          decoded: (entry as PerformanceResourceTiming).decodedBodySize,
        })),
    );
    const wire = scripts.reduce((sum, script) => sum + script.wire, 0);
    const decoded = scripts.reduce((sum, script) => sum + script.decoded, 0);
    console.log(
      `landing JS: ${scripts.length} files, ${(wire / 1024).toFixed(1)} KB on the wire, ${(decoded / 1024).toFixed(1)} KB decoded`,
    );
    expect(scripts.length).toBeGreaterThan(0);
    expect(encodings.every((encoding) => encoding === 'br')).toBe(true);
    expect(wire).toBeLessThanOrEqual(LANDING_JS_BUDGET_BYTES);
    expect(wire).toBeLessThan(decoded / 2);
    await close();
  });
});

describe('what the service worker fetches for every visitor', () => {
  it('precaches no staff code: the admin pages and their layout stay in assets/admin/', async () => {
    const worker = await readFile(join(WEB_DIST, 'sw.js'), 'utf8');
    const precached = [...worker.matchAll(/url:"([^"]+)"/g)].map(([, url]) => url ?? '');
    expect(precached.some((url) => url.startsWith('assets/'))).toBe(true);
    const staffOnly = (url: string) =>
      url.startsWith('assets/admin/') || /admin-layout|data-grid|uplot/i.test(url);
    expect(precached.filter(staffOnly)).toEqual([]);
  });
});
