import { runSimulatedCommands } from '@bot/bot-agent';
import { afterAll, expect, it, vi } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { type LiveBot, startLiveBot } from './live-helpers.ts';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser({ realtime: { adminFlushMs: 100, botUpdatesPerSecond: 50 } });
const bots: LiveBot[] = [];
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

const command = (kind: string, state: string) =>
  `[data-testid="bot-command"][data-kind="${kind}"][data-state="${state}"]`;

it('staff stop a game account from the users-online list; the page has no socket, the state still comes', async () => {
  const bot = await startLiveBot(shared.server, { accounts: 2 });
  bots.push(bot);
  runSimulatedCommands(bot.client, bot.world);
  const staff = await shared.server.createUser({ permissions: ['can_manageUsersOnline'] });
  const { page, errors, close } = await openPage(shared.browser, shared.server.url);
  await signInThroughForm(page, staff.user.username, staff.password);
  await page.goto('/admin/usersOnline');
  await page.getByRole('button', { name: `Commandes à distance du bot ${bot.hwid}` }).click();
  const dialog = page.getByTestId('users-online-commands');
  const [, second] = bot.accounts;
  await dialog.locator(`[data-testid="bot-command-stop-account"][data-account="${second}"]`).click();
  await page
    .getByRole('dialog', { name: `Arrêter le compte ${second} ?` })
    .getByTestId('confirm-action')
    .click();
  await dialog.locator(command('stopAccount', 'succeeded')).waitFor({ timeout: 10_000 });
  await dialog.getByText(`« ${second} »`).waitFor();
  expect(bot.tick().accounts.find((account) => account.name === second)?.status).toBe('stopped');

  // Paused, the dialog offers Reprendre rather than Pause (it reads the bot's row again).
  const pause = dialog.getByTestId('bot-command-pause');
  const resume = dialog.getByTestId('bot-command-resume');
  expect([await pause.isEnabled(), await resume.isEnabled()]).toEqual([true, false]);
  await pause.click();
  await dialog.locator(command('pause', 'succeeded')).waitFor({ timeout: 10_000 });
  // Ran: no second Pause, even before the bot's next report says it is paused.
  expect([await pause.isEnabled(), await resume.isEnabled()]).toEqual([false, true]);
  await resume.click();
  await expect.poll(() => pause.isEnabled(), { timeout: 10_000 }).toBe(true);
  expect(errors).toEqual([]);
  await close();
});

it('staff restart a bot from the admin user page, and cancel a command waiting for an offline one', async () => {
  const bot = await startLiveBot(shared.server);
  bots.push(bot);
  runSimulatedCommands(bot.client, bot.world);
  const staff = await shared.server.createUser({ permissions: ['can_manageUsers'] });
  const { page, errors, close } = await openPage(shared.browser, shared.server.url);
  await signInThroughForm(page, staff.user.username, staff.password);
  await page.goto(`/admin/users/${bot.owner.user.id}`);
  const section = page.getByRole('region', { name: 'Commandes à distance' });
  const reconnected = new Promise<void>((resolve) => bot.client.on('authenticated', resolve));
  /** The bot's state as the server holds it (what the card reads). */
  const botState = async () =>
    (
      await apiClient(shared.server)<{ data: { state: { paused?: boolean; online?: boolean } | null } }>(
        'GET',
        `/admin/users/${bot.owner.user.id}/bot`,
        undefined,
        staff.token,
      )
    ).body.data.state;
  await section.getByTestId('bot-command-restart').click();
  await section.locator(command('restart', 'succeeded')).waitFor({ timeout: 10_000 });
  await reconnected;

  // The owner pauses it: the Bot card says so, and only Reprendre is offered.
  await apiClient(shared.server)('POST', '/me/bot/commands', { kind: 'pause' }, bot.owner.token);
  // Told by no socket: the page reads it once reloaded, then every 500 ms while it waits.
  await page.reload();
  await section.locator(command('pause', 'succeeded')).waitFor({ timeout: 10_000 });
  // Once the bot's report after the pause has reached the server, the card shows it on load.
  await vi.waitFor(async () => expect((await botState())?.paused).toBe(true));
  await page.reload();
  await page.getByTestId('user-bot-presence').getByText('En pause').waitFor();
  await expect.poll(() => section.getByTestId('bot-command-pause').isDisabled()).toBe(true);
  await section.getByTestId('bot-command-resume').click();
  await section.locator(command('resume', 'succeeded')).waitFor({ timeout: 10_000 });

  // Offline, the bot can be sent a command that waits for it (the card is read anew on load).
  await bot.stop();
  await vi.waitFor(async () => expect((await botState())?.online ?? false).toBe(false));
  await page.reload();
  await section.getByTestId('bot-command-pause').click();
  const waiting = section.locator(command('pause', 'queued'));
  await waiting.waitFor({ timeout: 5_000 });
  await waiting.getByTestId('bot-command-cancel').click();
  await section.locator(command('pause', 'cancelled')).waitFor({ timeout: 5_000 });
  expect(errors).toEqual([]);
  await close();
});
