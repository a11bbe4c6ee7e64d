import { afterAll, describe, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { type LiveBot, startLiveBot } from './live-helpers.ts';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser({ realtime: { adminFlushMs: 100 } });
const bots: LiveBot[] = [];
// Registered after serverAndBrowser: runs before the server closes (after-hooks run in reverse).
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

describe('/admin/usersOnline', () => {
  it('lists the connected bots and kicking one disconnects it', async () => {
    const kept = await startLiveBot(shared.server, { accounts: 2 });
    const kicked = await startLiveBot(shared.server, { accounts: 1 });
    bots.push(kept, kicked);
    const fatal = new Promise<string>((resolve) => kicked.client.on('fatal', (error) => resolve(error.code)));

    const staff = await shared.server.createUser({ permissions: ['can_manageUsersOnline'] });
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, staff.user.username, staff.password);
    await page.goto('/admin/usersOnline');
    const botsGrid = page.getByRole('grid', { name: 'Bots connectés' });
    const keptRow = botsGrid.locator(`[role="row"][data-id="${kept.hwid}"]`);
    const kickedRow = botsGrid.locator(`[role="row"][data-id="${kicked.hwid}"]`);
    await keptRow.waitFor({ timeout: 10_000 });
    await kickedRow.waitFor();
    expect(await keptRow.textContent()).toContain(kept.owner.user.username);
    expect(await keptRow.textContent()).toContain('1.2.3');
    expect(await keptRow.textContent()).toContain(kept.accounts.join(', '));

    // Search narrows the list to one owner.
    await page
      .getByRole('searchbox', { name: 'Propriétaire, HWID, compte…' })
      .fill(kicked.owner.user.username);
    await expect.poll(() => keptRow.count(), { timeout: 5_000 }).toBe(0);
    await kickedRow.waitFor();
    await page.getByRole('searchbox', { name: 'Propriétaire, HWID, compte…' }).fill('');
    await keptRow.waitFor();

    await page.getByRole('button', { name: `Déconnecter le bot ${kicked.hwid}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Déconnecter' }).click();
    expect(await fatal).toBe('BOT_KICKED');
    expect(kicked.client.isConnected).toBe(false);
    await expect.poll(() => kickedRow.count(), { timeout: 5_000 }).toBe(0);
    await keptRow.waitFor({ timeout: 5_000 });
    expect(kept.client.isConnected).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('lists signed-in web sessions and revoking one signs that browser out', async () => {
    const customer = await shared.server.createUser();
    await apiClient(shared.server)('GET', '/me/info', undefined, customer.token);
    const staff = await shared.server.createUser({ permissions: ['can_manageUsersOnline'] });
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, staff.user.username, staff.password);
    await page.goto('/admin/usersOnline');
    const sessionsGrid = page.getByRole('grid', { name: 'Sessions web' });
    await sessionsGrid.getByText(customer.user.username).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: `Fermer la session de ${customer.user.username}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Fermer la session' }).click();
    // While the dialog is open the page behind it is hidden from the accessibility tree (the grid
    // counts no row): the row's absence only means something once the dialog has closed.
    await page.getByText('Session fermée.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => sessionsGrid.getByText(customer.user.username).count(), { timeout: 5_000 })
      .toBe(0);
    expect((await apiClient(shared.server)('GET', '/me/info', undefined, customer.token)).status).toBe(401);
    expect(errors).toEqual([]);
    await close();
  });
});
