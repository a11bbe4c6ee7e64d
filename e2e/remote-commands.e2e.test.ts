import { runSimulatedCommands } from '@bot/bot-agent';
import { afterAll, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { type LiveBot, openAdminMap, startLiveBot } from './live-helpers.ts';
import { lookAt, pagePointOf, readListedAccounts } from './map-reading.ts';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser({ realtime: { adminFlushMs: 100, botUpdatesPerSecond: 50 } });
const bots: LiveBot[] = [];
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

const command = (kind: string, state: string) =>
  `[data-testid="bot-command"][data-kind="${kind}"][data-state="${state}"]`;

it('an owner pauses, resumes and stops an account from /account/mybot; the page says "en pause" and the timeline follows', async () => {
  const bot = await startLiveBot(shared.server, { accounts: 2 });
  bots.push(bot);
  const commands = runSimulatedCommands(bot.client, bot.world);
  const { page, errors, close } = await openPage(shared.browser, shared.server.url);
  await signInThroughForm(page, bot.owner.user.username, bot.owner.password);
  await page.goto('/account/mybot');
  await page.locator('[data-testid="mybot-connection"][data-state="connected"]').waitFor();
  const timeline = page.getByRole('list', { name: 'Événements du bot' });

  await page.getByTestId('bot-command-pause').click();
  await page.locator(command('pause', 'succeeded')).waitFor({ timeout: 5_000 });
  expect(commands.isPaused()).toBe(true);
  // The true state: paused, not "en ligne"; the timeline shows the outcome without a reload.
  await page.locator('[data-testid="mybot-online"][data-paused="true"]').getByText('Bot en pause').waitFor();
  await timeline.getByText('Pause — par vous — Exécutée').waitFor({ timeout: 5_000 });

  await page.getByTestId('bot-command-resume').click();
  await page.locator(command('resume', 'succeeded')).waitFor({ timeout: 5_000 });
  expect(commands.isPaused()).toBe(false);
  await page.locator('[data-testid="mybot-online"][data-paused="false"]').getByText('Bot en ligne').waitFor();

  const [first] = bot.accounts;
  await page.locator(`[data-testid="bot-command-stop-account"][data-account="${first}"]`).click();
  await page.locator(command('stopAccount', 'succeeded')).waitFor({ timeout: 5_000 });
  expect(bot.tick().accounts.find((account) => account.name === first)?.status).toBe('stopped');
  expect(errors).toEqual([]);
  await close();
});

it('an owner whose bot is offline sees a command wait with its expiry, and cancels it', async () => {
  const bot = await startLiveBot(shared.server);
  await bot.stop();
  const { page, errors, close } = await openPage(shared.browser, shared.server.url);
  await signInThroughForm(page, bot.owner.user.username, bot.owner.password);
  await page.goto('/account/mybot');
  await page.locator('[data-testid="mybot-connection"][data-state="connected"]').waitFor();

  await page.getByTestId('bot-command-restart').click();
  const waiting = page.locator(command('restart', 'queued'));
  await waiting.waitFor({ timeout: 5_000 });
  expect(await waiting.getByTestId('bot-command-expiry').textContent()).toMatch(/^expire à \d{2}:\d{2}$/);
  await waiting.getByTestId('bot-command-cancel').click();
  const cancelled = page.locator(command('restart', 'cancelled'));
  await cancelled.waitFor({ timeout: 5_000 });
  expect(await cancelled.getByTestId('bot-command-expiry').count()).toBe(0);
  expect(await cancelled.getByTestId('bot-command-cancel').count()).toBe(0);
  expect(errors).toEqual([]);
  await close();
});

it('staff push a published route picked by name and an account switched off from the map panel, and see the owner’s commands live', async () => {
  const editor = await shared.server.createUser({ permissions: ['can_manageRoute'] });
  const route = await apiClient(shared.server)<{ data: { id: string } }>(
    'POST',
    '/admin/routes',
    { name: 'Tour des forêts e2e', kind: 'gathering', status: 'published', steps: [] },
    editor.token,
  );
  const bot = await startLiveBot(shared.server, { accounts: 2 });
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
  const panel = page.locator(`[data-testid="map-panel"][data-hwid="${bot.hwid}"]`);
  await panel.waitFor();

  await panel.getByTestId('bot-command-route').click();
  await page.getByRole('option', { name: 'Tour des forêts e2e' }).click();
  const [, second] = bot.accounts;
  await panel.locator(`[data-testid="bot-command-account-enabled"][data-account="${second}"]`).uncheck();
  await panel.getByTestId('bot-command-configure').click();
  await panel.locator(command('configure', 'succeeded')).waitFor({ timeout: 5_000 });
  await panel.getByText('(itinéraire Tour des forêts e2e)').waitFor();
  const report = bot.tick();
  expect(report.accounts.map((listed) => [listed.routeId, listed.status === 'stopped'])).toEqual([
    [route.body.data.id, false],
    [route.body.data.id, true],
  ]);

  // The owner pauses their bot: the staff panel hears the command and the paused state, live.
  await apiClient(shared.server)('POST', '/me/bot/commands', { kind: 'pause' }, bot.owner.token);
  await panel.locator(command('pause', 'succeeded')).waitFor({ timeout: 5_000 });
  await panel.getByTestId('map-panel-paused').waitFor({ timeout: 5_000 });
  expect(errors).toEqual([]);
  await close();
});
