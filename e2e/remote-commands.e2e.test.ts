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
  // Paused: its accounts read "En pause", not their last activity; only Reprendre makes sense.
  for (const name of bot.accounts)
    await page
      .getByTestId(`mybot-account-${name}`)
      .locator('[data-status="paused"]', { hasText: 'En pause' })
      .waitFor();
  await expect.poll(() => page.getByTestId('bot-command-pause').isDisabled()).toBe(true);
  expect(await page.getByTestId('bot-command-resume').isEnabled()).toBe(true);

  await page.getByTestId('bot-command-resume').click();
  await page.locator(command('resume', 'succeeded')).waitFor({ timeout: 5_000 });
  expect(commands.isPaused()).toBe(false);
  await page.locator('[data-testid="mybot-online"][data-paused="false"]').getByText('Bot en ligne').waitFor();
  await expect.poll(() => page.getByTestId('bot-command-resume').isDisabled()).toBe(true);

  // Stopping an account asks first; once stopped, it is not offered again.
  const [first] = bot.accounts;
  const stop = page.locator(`[data-testid="bot-command-stop-account"][data-account="${first}"]`);
  await stop.click();
  await page
    .getByRole('dialog', { name: `Arrêter le compte ${first} ?` })
    .getByRole('button', { name: 'Annuler' })
    .click();
  expect(await page.locator(command('stopAccount', 'queued')).count()).toBe(0);
  await stop.click();
  await page.getByTestId('confirm-action').click();
  await page.locator(command('stopAccount', 'succeeded')).waitFor({ timeout: 5_000 });
  expect(bot.tick().accounts.find((account) => account.name === first)?.status).toBe('stopped');
  await expect.poll(() => stop.isDisabled(), { timeout: 5_000 }).toBe(true);
  expect(errors).toEqual([]);

  // The live connection drops: the last state may be stale, the page does not claim the bot online.
  await page.context().setOffline(true);
  await page
    .locator('[data-testid="mybot-connection"]:not([data-state="connected"])')
    .waitFor({ timeout: 10_000 });
  await page
    .locator('[data-testid="mybot-online"][data-online="unknown"]')
    .getByText('État du bot inconnu')
    .waitFor();
  await page.context().setOffline(false);
  await page.locator('[data-testid="mybot-online"][data-online="true"]').waitFor({ timeout: 10_000 });
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
  await waiting.getByText('En file d’attente').waitFor();
  expect(await waiting.getByTestId('bot-command-expiry').textContent()).toMatch(/^expire à \d{2}:\d{2}$/);
  await waiting.getByTestId('bot-command-cancel').click();
  const cancelled = page.locator(command('restart', 'cancelled'));
  await cancelled.waitFor({ timeout: 5_000 });
  await cancelled.getByText('(annulée par vous)').waitFor();
  expect(await cancelled.getByTestId('bot-command-expiry').count()).toBe(0);
  expect(await cancelled.getByTestId('bot-command-cancel').count()).toBe(0);

  // A command sent by staff waits too: its owner cannot cancel it (the server would refuse).
  const staff = await shared.server.createUser({ permissions: ['can_manageUsers'] });
  await apiClient(shared.server)('POST', `/admin/bots/${bot.hwid}/commands`, { kind: 'pause' }, staff.token);
  const fromStaff = page.locator(command('pause', 'queued'));
  await fromStaff.getByText('par l’équipe', { exact: false }).waitFor({ timeout: 5_000 });
  expect(await fromStaff.getByTestId('bot-command-cancel').count()).toBe(0);

  // Up to ten may wait: the five newest are listed, every one on demand.
  for (let sent = 3; sent <= 6; sent += 1) {
    await page.getByTestId('bot-command-restart').click();
    await expect.poll(() => page.getByTestId('bot-command').count()).toBe(Math.min(sent, 5));
  }
  await page.getByRole('button', { name: 'Voir les 6 commandes' }).click();
  await expect.poll(() => page.getByTestId('bot-command').count()).toBe(6);
  await page.getByRole('button', { name: 'Voir moins' }).click();
  await expect.poll(() => page.getByTestId('bot-command').count()).toBe(5);
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
  await panel.getByText(`${second} arrêté`, { exact: true }).waitFor();
  await panel.getByTestId('bot-command-configure').click();
  await panel.locator(command('configure', 'succeeded')).waitFor({ timeout: 5_000 });
  await panel.getByText('(itinéraire Tour des forêts e2e)').waitFor();
  const report = bot.tick();
  expect(report.accounts.map((listed) => [listed.routeId, listed.status === 'stopped'])).toEqual([
    [route.body.data.id, false],
    [route.body.data.id, true],
  ]);
  // The panel names the route the bot reports, not its id.
  await expect
    .poll(() => panel.getByTestId('map-panel-route').allTextContents(), { timeout: 5_000 })
    .toContain('Tour des forêts e2e');
  // Its owner reads the route's name too, in the accounts table and the command (never its id).
  const owner = await openPage(shared.browser, shared.server.url);
  await signInThroughForm(owner.page, bot.owner.user.username, bot.owner.password);
  await owner.page.goto('/account/mybot');
  const routeCells = owner.page
    .getByRole('table', { name: 'Comptes de jeu' })
    .getByText('Tour des forêts e2e');
  await expect.poll(() => routeCells.count(), { timeout: 5_000 }).toBe(2);
  await owner.page.getByTestId('bot-commands').getByText('(itinéraire Tour des forêts e2e)').waitFor();
  expect(await owner.page.getByText(route.body.data.id).count()).toBe(0);
  // Back to draft while the bot still follows it: it reads "non publié", still never its id.
  await apiClient(shared.server)(
    'PUT',
    `/admin/routes/${route.body.data.id}`,
    { status: 'draft' },
    editor.token,
  );
  await owner.page.reload();
  await owner.page.getByTestId('bot-commands').getByText('(itinéraire non publié)').waitFor();
  expect(await owner.page.getByText(route.body.data.id).count()).toBe(0);
  expect(owner.errors).toEqual([]);
  await owner.close();

  // The owner pauses their bot: the staff panel hears the command and the paused state, live.
  await apiClient(shared.server)('POST', '/me/bot/commands', { kind: 'pause' }, bot.owner.token);
  await panel.locator(command('pause', 'succeeded')).waitFor({ timeout: 5_000 });
  await panel.getByTestId('map-panel-paused').waitFor({ timeout: 5_000 });
  expect(errors).toEqual([]);
  await close();
});
