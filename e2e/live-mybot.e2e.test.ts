import { afterAll, describe, expect, it } from 'vitest';
import { type LiveBot, startLiveBot } from './live-helpers.ts';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

// Reports come faster than a real bot's here: the throttle is raised so that none is dropped.
const shared = serverAndBrowser({
  realtime: { adminFlushMs: 100, offlineTimeoutMs: 3_000, botUpdatesPerSecond: 50 },
});
const bots: LiveBot[] = [];
// Registered after serverAndBrowser: runs before the server closes (after-hooks run in reverse).
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

describe('/account/mybot live', () => {
  it('shows the first-run guide while no bot ever connected', async () => {
    const owner = await shared.server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] });
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, owner.user.username, owner.password);
    await page.goto('/account/mybot');
    await page.getByTestId('mybot-first-run').waitFor();
    await page.getByRole('button', { name: 'Copier la clé' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it("shows the bot's update within 2 s and sees it go offline when the bot stops", async () => {
    const bot = await startLiveBot(shared.server, { accounts: 2 });
    bots.push(bot);
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, bot.owner.user.username, bot.owner.password);
    await page.goto('/account/mybot');
    await page.locator('[data-testid="mybot-online"][data-online="true"]').waitFor({ timeout: 5_000 });
    await page.locator('[data-testid="mybot-connection"][data-state="connected"]').waitFor();
    for (const name of bot.accounts) await page.getByTestId(`mybot-account-${name}`).waitFor();

    // Each report reaches the page within 2 s: position and status of the first account.
    for (let round = 0; round < 3; round++) {
      let report = bot.world.tick(); // one report per round: the hub accepts a few per second
      // Make sure the tick changed something visible: force a distinct position.
      const first = report.accounts[0]!;
      const x = ((first.position.x + 7 + round) % 40) - 1;
      // A thousand more gathered each round: the chart's total follows without a reload (bot_history).
      const stats = { ...first.stats, gathered: 1_000 * (round + 1) };
      report = {
        ...report,
        accounts: [{ ...first, stats, position: { ...first.position, x } }, ...report.accounts.slice(1)],
      };
      bot.client.report(report);
      const row = page.getByTestId(`mybot-account-${first.name}`);
      await row
        .getByTestId('mybot-position')
        .filter({ hasText: `[${x}, ${first.position.y}]` })
        .waitFor({ timeout: 2_000 });
      await page
        .locator(`[data-testid="mybot-account-${first.name}"][data-status="${first.status}"]`)
        .waitFor({ timeout: 2_000 });
    }
    // The chart's minutes come over the socket: no reload, no minute-long poll (decision 013).
    const gathered = async () =>
      Number((await page.getByTestId('chart-gathered-total').textContent())?.replace(/\D/g, ''));
    await expect.poll(gathered, { timeout: 3_000 }).toBeGreaterThanOrEqual(2_000);
    await page.getByTestId('mybot-events').waitFor();
    if (process.env.LIVE_SCREENSHOTS) await page.screenshot({ path: '/tmp/live-mybot.png', fullPage: true });

    await bot.stop();
    await page.locator('[data-testid="mybot-online"][data-online="false"]').waitFor({ timeout: 6_000 });
    await page
      .locator('[data-testid="mybot-events"] [data-kind="offline"]')
      .first()
      .waitFor({ timeout: 2_000 });
    expect(errors).toEqual([]);
    await close();
  });

  it("never shows another customer's bot", async () => {
    const mine = await startLiveBot(shared.server);
    const theirs = await startLiveBot(shared.server);
    bots.push(mine, theirs);
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, mine.owner.user.username, mine.owner.password);
    await page.goto('/account/mybot');
    await page.getByTestId(`mybot-account-${mine.accounts[0]}`).waitFor({ timeout: 5_000 });
    for (let i = 0; i < 3; i++) {
      theirs.tick();
      const report = mine.tick();
      const [account] = report.accounts;
      // Mine shown: the other bot's report, sent first, had every chance to leak by now.
      await page
        .getByTestId(`mybot-account-${account?.name}`)
        .getByTestId('mybot-position')
        .filter({ hasText: `[${account?.position.x}, ${account?.position.y}]` })
        .waitFor({ timeout: 5_000 });
    }
    const html = await page.content();
    expect(html).toContain(mine.hwid);
    expect(html).not.toContain(theirs.hwid);
    expect(html).not.toContain(theirs.accounts[0]);
    expect(await page.getByTestId(`mybot-account-${theirs.accounts[0]}`).count()).toBe(0);

    // Asking the socket for the other customer's hwid from this page is refused by the shared.server.
    const refused = await page.evaluate(
      async ({ hwid }) => {
        const token = (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { token?: string } })
          .state?.token;
        const ws = new WebSocket(
          `${location.origin.replace('http', 'ws')}/socket.io/?hwid=${hwid}&EIO=4&transport=websocket`,
        );
        return await new Promise<string>((resolve) => {
          const seen: string[] = [];
          ws.onmessage = (message) => {
            const data = String(message.data);
            seen.push(data);
            if (data.startsWith('0')) ws.send('40');
            if (data.startsWith('40'))
              ws.send(`42${JSON.stringify(['authenticate', { token, type: 'client', hwid }])}`);
            if (data.includes('bot_update') || data.includes('auth_error')) resolve(data);
          };
          ws.onclose = () => resolve(seen.join('|'));
          setTimeout(() => resolve(seen.join('|')), 4_000);
        });
      },
      { hwid: theirs.hwid },
    );
    expect(refused).toContain('auth_error');
    expect(refused).not.toContain(theirs.accounts[0]);
    expect(errors).toEqual([]);
    await close();
  });

  it('the bot history tells its connection and an account in error, to the owner and to staff', async () => {
    const bot = await startLiveBot(shared.server);
    bots.push(bot);
    const report = bot.world.tick();
    const [first] = report.accounts;
    if (!first) throw new Error('no simulated account');
    bot.client.report({ ...report, accounts: [{ ...first, status: 'error', message: 'Inventaire plein' }] });

    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, bot.owner.user.username, bot.owner.password);
    await page.goto('/account/mybot');
    const history = page.getByRole('region', { name: 'Historique du bot' });
    // The error is written as the report arrives; the section refreshes every minute or on reload.
    await expect
      .poll(async () => {
        await page.reload();
        await history.getByTestId('bot-timeline').waitFor();
        return history.locator('li[data-kind="error"]').count();
      })
      .toBeGreaterThan(0);
    await history.getByText(`${first.name} : Inventaire plein`).first().waitFor();
    await history.locator('li[data-kind="connected"]').getByText('Version 1.2.3').first().waitFor();
    await history.getByTestId('chart-uptime').waitFor();
    const shots = process.env.SCREENSHOT_DIR;
    if (shots) await page.screenshot({ path: `${shots}/mybot-history.png`, fullPage: true });
    expect(errors).toEqual([]);
    await close();

    const staff = await shared.server.createUser({ permissions: ['can_manageUsers'] });
    const admin = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(admin.page, staff.user.username, staff.password);
    await admin.page.goto(`/admin/users/${bot.owner.user.id}#historique-du-bot`);
    const staffView = admin.page.getByRole('region', { name: 'Historique du bot' });
    // The short silence timeout of this file may have cut and restored the connection meanwhile:
    // the error is then told again after the reconnection.
    await staffView.locator('li[data-kind="error"]').getByText('Inventaire plein').first().waitFor();
    await staffView.locator('li[data-kind="bound"]').waitFor();
    if (shots) await admin.page.screenshot({ path: `${shots}/admin-user-history.png`, fullPage: true });

    // Staff reset the PC: its history stays on the user page, the reset in it, named for staff…
    await admin.page.getByRole('button', { name: 'Réinitialiser le HWID' }).click();
    // Asked first, saying what happens.
    const confirm = admin.page.getByRole('dialog', { name: 'Réinitialiser le HWID ?' });
    expect(await confirm.textContent()).toContain('sera délié');
    await confirm.getByRole('button', { name: 'Réinitialiser' }).click();
    await staffView.getByText(`HWID réinitialisé — par ${staff.user.username}`).waitFor();
    await staffView.getByText(`Ancien PC ${bot.hwid}`).waitFor();
    await staffView.locator('li[data-kind="error"]').first().waitFor();
    expect(admin.errors).toEqual([]);
    await admin.close();

    // …and the customer keeps their time with it, the reset told as the team's.
    const again = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(again.page, bot.owner.user.username, bot.owner.password);
    await again.page.goto('/account/mybot');
    const mine = again.page.getByRole('region', { name: 'Historique du bot' });
    await mine.getByText('HWID réinitialisé — par l’équipe').waitFor();
    expect(await mine.textContent()).not.toContain(staff.user.username);
    await again.close();
  });
});
