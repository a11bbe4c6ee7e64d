import { type BotClient, createBotClient, SimulatedBot } from '@bot/bot-agent';
import type { Browser, Page } from 'playwright-core';
import { apiClient, type TestServer, type TestUser } from '../apps/server/test/harness.ts';
import { newHwid, whitelist } from '../apps/server/test/helpers/realtime.ts';
import { openPage, signInThroughForm, type WatchedPage } from './support/browser.ts';

/** A customer with both bot permissions and a bot agent (the SDK) driving simulated game accounts. */
export interface LiveBot {
  owner: TestUser;
  hwid: string;
  accounts: string[];
  client: BotClient;
  world: SimulatedBot;
  /** Moves the simulated accounts one tick and reports them; answers what was sent. */
  tick(): ReturnType<SimulatedBot['tick']>;
  stop(): Promise<void>;
}

let counter = 0;

export async function startLiveBot(
  server: TestServer,
  options: { owner?: TestUser; accounts?: number } = {},
): Promise<LiveBot> {
  const owner =
    options.owner ?? (await server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] }));
  counter += 1;
  const accounts = Array.from({ length: options.accounts ?? 1 }, (_, index) => `Live${counter}x${index + 1}`);
  await whitelist(server, owner.user.id, accounts);
  const key = await apiClient(server)<{ data: { accessKey: string } }>(
    'GET',
    '/me/bot-key',
    undefined,
    owner.token,
  );
  const hwid = newHwid();
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: key.body.data.accessKey,
    hwid,
    version: '1.2.3',
  });
  await client.connect();
  const world = new SimulatedBot(hwid, accounts);
  const tick = () => {
    const report = world.tick();
    client.report(report);
    return report;
  };
  tick();
  return { owner, hwid, accounts, client, world, tick, stop: () => client.stop() };
}

/** Reads a number the page exposes in a `data-count` attribute (0 when absent). */
export async function readCount(page: Page, testId: string): Promise<number> {
  const value = await page
    .getByTestId(testId)
    .getAttribute('data-count')
    .catch(() => null);
  return value === null ? -1 : Number(value);
}

/**
 * A staff member with `can_manageMap` on /admin/map, its admin socket connected and its canvas
 * described in words (the text alternative the journeys read the map through).
 */
export async function openAdminMap(
  shared: { server: TestServer; browser: Browser },
  viewport?: { width: number; height: number },
): Promise<WatchedPage> {
  const admin = await shared.server.createUser({ permissions: ['can_manageMap'] });
  const watched = await openPage(shared.browser, shared.server.url, viewport ? { viewport } : {});
  const { page } = watched;
  await signInThroughForm(page, admin.user.username, admin.password);
  await page.goto('/admin/map');
  await page.locator('[data-testid="map-connection"][data-state="connected"]').waitFor({ timeout: 10_000 });
  await page.getByTestId('map-view').waitFor({ state: 'attached' });
  return watched;
}
