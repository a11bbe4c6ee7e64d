import type { Page } from 'playwright-core';

// How the journeys read /admin/map: through the words its canvas is described with for screen readers
// (apps/web/src/features/admin-map/description), and move it with the mouse, the wheel and the keys.

/** The view as the map states it; the data attributes hold the exact numbers the text rounds. */
export interface MapView {
  cx: number;
  cy: number;
  /** Pixels per map cell. */
  scale: number;
  isClustered: boolean;
  /** The world area on the canvas. */
  area: { minX: number; minY: number; maxX: number; maxY: number };
}

export function readMapView(page: Page): Promise<MapView> {
  return page.getByTestId('map-view').evaluate((element) => {
    const number = (name: string) => Number(element.getAttribute(`data-${name}`));
    return {
      cx: number('cx'),
      cy: number('cy'),
      scale: number('scale'),
      isClustered: element.getAttribute('data-clustered') === 'true',
      area: { minX: number('min-x'), minY: number('min-y'), maxX: number('max-x'), maxY: number('max-y') },
    };
  });
}

/** The accounts the map lists one by one (those held in the page that pass the filter). */
export interface ListedAccount {
  hwid: string;
  x: number;
  y: number;
}

/** The map's list of accounts; throws when the map lists only their count (too many to list). */
export async function readListedAccounts(page: Page): Promise<ListedAccount[]> {
  const count = Number(await page.getByTestId('map-shown-accounts-count').getAttribute('data-count'));
  const listed = await page.locator('[data-testid="map-shown-accounts"] li').evaluateAll((items) =>
    items.map((item) => ({
      hwid: item.getAttribute('data-hwid') ?? '',
      x: Number(item.getAttribute('data-x')),
      y: Number(item.getAttribute('data-y')),
    })),
  );
  if (listed.length !== count) throw new Error(`the map lists ${listed.length} of ${count} accounts`);
  return listed;
}

/** Of `hwids`, those with an account listed on the map, in the same order. */
export async function listedBots(page: Page, hwids: string[]): Promise<string[]> {
  const listed = new Set((await readListedAccounts(page)).map((account) => account.hwid));
  return hwids.filter((hwid) => listed.has(hwid));
}

/** The zones of the map, and where the names painted on the canvas are (canvas pixels). */
export function readAreas(page: Page): Promise<{ name: string; label: { x: number; y: number } | null }[]> {
  return page.locator('[data-testid="map-areas"] li').evaluateAll((items) =>
    items.map((item) => {
      const x = item.getAttribute('data-label-x');
      const y = item.getAttribute('data-label-y');
      return {
        name: item.querySelector('[data-testid="map-area-name"]')?.textContent ?? '',
        label: x === null || y === null ? null : { x: Number(x), y: Number(y) },
      };
    }),
  );
}

/** The page point over the world point (x, y), from the area the map says it shows. */
export async function pagePointOf(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId('map-canvas').boundingBox())!;
  const { area } = await readMapView(page);
  return {
    x: box.x + ((x - area.minX) / (area.maxX - area.minX)) * box.width,
    y: box.y + ((y - area.minY) / (area.maxY - area.minY)) * box.height,
  };
}

/**
 * The view once the map's description states the framing the canvas has now: the canvas counts its
 * changes (`data-view-revision`) and the description, refreshed a few times a second, says which
 * one it describes.
 */
export async function settledView(page: Page): Promise<MapView> {
  await page.waitForFunction(() => {
    const canvas = document.querySelector('[data-testid="map-canvas"]');
    const described = document.querySelector('[data-testid="map-view"]');
    const revision = canvas?.getAttribute('data-view-revision');
    return revision != null && described?.getAttribute('data-revision') === revision;
  });
  return readMapView(page);
}

/** One wheel notch zooms the map by this much (apps/web/src/features/admin-map/interaction). */
const WHEEL_ZOOM = 1.2;

/**
 * Centres the map on (x, y) at about `scale` pixels per map cell (within one wheel notch), as a user
 * would: 0 to see the whole world, the wheel over the point, then a drag bringing it to the middle.
 */
export async function lookAt(page: Page, x: number, y: number, scale: number): Promise<MapView> {
  await page.getByTestId('map-region').focus();
  await page.keyboard.press('0');
  const fitted = await settledView(page);
  const over = await pagePointOf(page, x, y);
  await page.mouse.move(over.x, over.y);
  const notches = Math.round(Math.log(scale / fitted.scale) / Math.log(WHEEL_ZOOM));
  for (let notch = 0; notch < Math.abs(notches); notch++) await page.mouse.wheel(0, notches > 0 ? -100 : 100);
  await settledView(page);
  const from = await pagePointOf(page, x, y);
  const box = (await page.getByTestId('map-canvas').boundingBox())!;
  const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  // A press moving less than a few pixels is a click (it would select an account): no drag then.
  if (Math.hypot(middle.x - from.x, middle.y - from.y) > 5) {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(middle.x, middle.y, { steps: 5 });
    await page.mouse.up();
  }
  return settledView(page);
}
