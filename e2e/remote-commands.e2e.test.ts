import { runSimulatedCommands } from '@bot/bot-agent';
import { afterAll, expect, it } from 'vitest';
import { type LiveBot, startLiveBot } from './live-helpers.ts';
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
