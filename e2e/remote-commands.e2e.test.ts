import { runSimulatedCommands } from '@bot/bot-agent';
import { afterAll, expect, it } from 'vitest';
import { type LiveBot, openAdminMap, startLiveBot } from './live-helpers.ts';
import { lookAt, pagePointOf, readListedAccounts } from './map-reading.ts';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser({ realtime: { adminFlushMs: 100, botUpdatesPerSecond: 50 } });
const bots: LiveBot[] = [];
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

it('an owner pauses and resumes their bot from /account/mybot and sees each command confirmed by it', async () => {
  const bot = await startLiveBot(shared.server);
  bots.push(bot);
  const commands = runSimulatedCommands(bot.client, bot.world);
  const { page, errors, close } = await openPage(shared.browser, shared.server.url);
  await signInThroughForm(page, bot.owner.user.username, bot.owner.password);
  await page.goto('/account/mybot');
  await page.locator('[data-testid="mybot-connection"][data-state="connected"]').waitFor();

  await page.getByTestId('bot-command-pause').click();
  await page
    .locator('[data-testid="bot-command"][data-kind="pause"][data-state="succeeded"]')
    .waitFor({ timeout: 5_000 });
  expect(commands.isPaused()).toBe(true);

  await page.getByTestId('bot-command-resume').click();
  await page
    .locator('[data-testid="bot-command"][data-kind="resume"][data-state="succeeded"]')
    .waitFor({ timeout: 5_000 });
  expect(commands.isPaused()).toBe(false);
  await page.getByText('Exécutée').first().waitFor();
  expect(errors).toEqual([]);
  await close();
});

it('staff push a route to a bot from the map panel and see the bot confirm it', async () => {
  const bot = await startLiveBot(shared.server);
  bots.push(bot);
  runSimulatedCommands(bot.client, bot.world);
  const { page, errors, close } = await openAdminMap(shared);
  await expect
    .poll(async () => (await readListedAccounts(page)).some((account) => account.hwid === bot.hwid), {
      timeout: 5_000,
    })
    .toBe(true);
  const account = (await readListedAccounts(page)).find((listed) => listed.hwid === bot.hwid)!;
  await lookAt(page, account.x, account.y, 12);
  const over = await pagePointOf(page, account.x, account.y);
  await page.mouse.click(over.x, over.y);
  await page.locator(`[data-testid="map-panel"][data-hwid="${bot.hwid}"]`).waitFor();

  await page.getByTestId('map-command-route').fill('route-e2e');
  await page.getByTestId('map-command-configure').click();
  await page
    .locator('[data-testid="bot-command"][data-kind="configure"][data-state="succeeded"]')
    .waitFor({ timeout: 5_000 });
  expect(bot.world.tick().accounts[0]?.routeId).toBe('route-e2e');
  expect(errors).toEqual([]);
  await close();
});
