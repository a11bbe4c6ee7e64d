import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type StartTestServerOptions,
  startTestServer,
  type TestServer,
} from '../../apps/server/test/harness.ts';

/** This run's snapshot of the built web app (made by the global setup), else apps/web/dist. */
export const WEB_DIST =
  process.env.E2E_WEB_DIST ?? fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
/**
 * Debian's Chromium for the journeys: its headless shell (package `chromium-headless-shell`, the build
 * Playwright itself runs headless: the same Blink and V8 without the full browser's windowing layers)
 * when installed, else the full browser. Measured on the responsive sweep: 36 s against 55-61 s, with
 * 40 % less CPU. The map and Lighthouse benchmarks keep the full browser.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file)) ??
  '/usr/bin/chromium';

/** One headless Debian Chromium per test file. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium introuvable (${CHROMIUM_PATH}) : apt-get install -y chromium chromium-headless-shell`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * A product server hosting the built web app and one Chromium, shared by a test file: started before
 * its tests, closed after them. Read `.server` and `.browser` inside the tests.
 */
export function serverAndBrowser(options: StartTestServerOptions = {}): {
  readonly server: TestServer;
  readonly browser: Browser;
} {
  const started: { server?: TestServer; browser?: Browser } = {};
  beforeAll(async () => {
    [started.server, started.browser] = await Promise.all([
      startTestServer({ webDist: WEB_DIST, ...options }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.close();
  });
  return {
    get server() {
      if (!started.server) throw new Error('serverAndBrowser: used before its beforeAll ran');
      return started.server;
    },
    get browser() {
      if (!started.browser) throw new Error('serverAndBrowser: used before its beforeAll ran');
      return started.browser;
    },
  };
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Resolves once the page has no request in flight and starts none while it renders (see `settle`). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** The errors left once the failed requests a test provokes on purpose (the browser logs them) are set aside. */
export function unexpectedErrors(errors: string[], ...statuses: number[]): string[] {
  return errors.filter((error) => !statuses.some((status) => error.includes(`status of ${status}`)));
}

/** A fresh context (own storage, own service worker) and page that records every console error. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  options: { blockServiceWorkers?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL,
    locale: 'fr-FR',
    viewport: options.viewport ?? { width: 1366, height: 900 },
    serviceWorkers: options.blockServiceWorkers ? 'block' : 'allow',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} @ ${message.location().url}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  let inFlight = 0;
  page.on('request', () => {
    inFlight += 1;
  });
  const ended = () => {
    inFlight -= 1;
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return { page, context, errors, settled: () => settle(page, () => inFlight), close: () => context.close() };
}

/**
 * Waits until no request is in flight and none starts over the next two frames (the render of what
 * arrived, whose effects may fetch more): the page shows its data. Playwright's `networkidle` waits
 * for 500 ms of silence instead, per page; the app's socket is a websocket, not a pending request.
 */
async function settle(page: Page, inFlight: () => number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const timeout = Math.max(1, deadline - Date.now());
    await expect.poll(inFlight, { interval: 20, timeout, message: 'requests still in flight' }).toBe(0);
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    if (inFlight() === 0) return;
    if (Date.now() > deadline) throw new Error('the page kept starting requests for 15 s');
  }
}

/**
 * Goes to another page of the running app as one of its links does, without reloading it: the router
 * follows the new history entry. Journeys through many pages use it; `page.goto` reloads everything.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Opens a page of the running app in place (`navigateInApp`), waits for its heading and for its data.
 * Without a heading (the home page's h1 is its hero title) any h1 will do, which the previous page's
 * still is: only for the page the sweep starts on, loaded by `page.goto`.
 */
export async function visitInApp(watched: WatchedPage, path: string, heading?: string): Promise<void> {
  // What the app was doing first (a sign-in's own redirect still loading could win over this move).
  await watched.settled();
  await navigateInApp(watched.page, path);
  if (heading === undefined) await watched.page.locator('h1').first().waitFor();
  else await expectHeading(watched.page, heading, path);
  await watched.settled();
}

/** Waits for the current URL's path (and query, when given) to be `expected`. */
export async function waitForPath(page: Page, expected: string | RegExp, timeout = 10_000): Promise<void> {
  await page.waitForURL(
    (url) => {
      const current = `${url.pathname}${url.search}`;
      return typeof expected === 'string'
        ? current === expected || url.pathname === expected
        : expected.test(current);
    },
    { timeout },
  );
}

/** The persisted auth state (docs/specification.md §6), as the app wrote it in local storage. */
export async function readAuthState(page: Page): Promise<Record<string, unknown> | null> {
  const raw = await page.evaluate(() => localStorage.getItem('auth'));
  if (!raw) return null;
  return (JSON.parse(raw) as { state: Record<string, unknown> }).state;
}

/** Signs in through the login form and waits for the landing path. */
export async function signInThroughForm(
  page: Page,
  username: string,
  password: string,
  // Customers land in their account, staff who may enter the admin area in /admin.
  landing: string | RegExp = /^\/(account|admin)(\?|$)/,
) {
  await page.goto('/login');
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await waitForPath(page, landing);
}

/** The visible main heading (h1) text of the page. */
export async function headingText(page: Page): Promise<string> {
  const heading = page.locator('h1').first();
  await heading.waitFor({ state: 'visible', timeout: 10_000 });
  return (await heading.textContent())?.trim() ?? '';
}

/** Waits until the page's main heading reads `expected` (renders may trail the URL by a frame). */
export async function expectHeading(page: Page, expected: string, label?: string): Promise<void> {
  await expect.poll(() => headingText(page), { timeout: 10_000, message: label }).toBe(expected);
}

/**
 * Resolves once the app has taken over a prerendered public page (its listeners installed): what
 * shows before that is the static copy (docs/decisions/106).
 */
export async function waitForApp(page: Page): Promise<void> {
  await page.locator('#root:not([data-prerendered])').waitFor({ state: 'attached' });
}
