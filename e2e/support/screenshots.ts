import type { Page } from 'playwright-core';

/**
 * `SCREENSHOT_DIR=/tmp/shots npx vitest run --project e2e <file>` keeps what a journey saw, for a
 * person to look at; without it, nothing is written. `fullPage: false` keeps what the screen shows
 * (a phone's first view, an overlay).
 */
export async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const directory = process.env.SCREENSHOT_DIR;
  if (directory)
    await page.screenshot({ path: `${directory}/${name}.png`, fullPage: options.fullPage ?? true });
}
