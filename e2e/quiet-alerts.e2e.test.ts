import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { alertPreferences } from '../apps/server/src/modules/alerts/index.ts';
import { DiscordReceiver } from '../apps/server/test/discord-receiver.ts';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

const WEBHOOK = 'https://discord.com/api/webhooks/423456789012345678/Abc-def_ghijklmnopqrstuvwxyz0123';
// A local stand-in for Discord, started before the server that posts to it.
const discord = new DiscordReceiver();
const discordUrl = await discord.start();
const shared = serverAndBrowser({
  env: { DISCORD_API_URL: discordUrl },
  alerts: { evaluateEveryMs: 3_600_000, discordPollMs: 50, discordRetryBaseMs: 20 },
});
afterAll(() => discord.close());

/** `<input type="datetime-local">` value for a time, in the browser's (and this machine's) zone. */
function localInput(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

describe('quiet alerts in the browser', () => {
  it('staff schedule a maintenance window: everyone sees its message in the banner until staff cancel it', async () => {
    const staff = await shared.server.createUser({ permissions: ['can_manageSettings'] });
    const customer = await shared.server.createUser();
    const admin = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(admin.page, staff.user.username, staff.password);
    await admin.page.goto('/admin/settings');
    const card = admin.page.getByRole('form', { name: 'Programmer une fenêtre de maintenance' });
    await card.getByLabel('Début').fill(localInput(new Date(Date.now() - 60_000)));
    await card.getByLabel('Fin').fill(localInput(new Date(Date.now() - 120_000)));
    await card.getByText('La fin doit suivre le début.').waitFor();
    await card.getByLabel('Fin').fill(localInput(new Date(Date.now() + 3_600_000)));
    await card.getByLabel('Message de la bannière').fill('Maintenance du serveur en cours');
    await card.getByLabel('Alertes suspendues').selectOption('fleet');
    await card.getByRole('button', { name: 'Programmer' }).click();
    await admin.page.getByText('Fenêtre de maintenance programmée.').waitFor();
    const list = admin.page.getByRole('list', { name: 'Fenêtres de maintenance' });
    await list.getByText('En cours — Maintenance du serveur en cours').waitFor();
    // The form still holds the same hours: a second window there would overlap, and staff are told
    // whose message the banner shows.
    await card
      .getByText(
        'Cette fenêtre chevauche « Maintenance du serveur en cours » : pendant le chevauchement, la bannière affichera « Maintenance du serveur en cours ».',
      )
      .waitFor();
    // The banner of this tab follows at once, staff included.
    const banner = admin.page.getByTestId('maintenance-window-banner');
    await banner.filter({ hasText: 'Maintenance du serveur en cours' }).waitFor();
    await shoot(admin.page, 'maintenance-window-admin');

    const visitor = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(visitor.page, customer.user.username, customer.password);
    await visitor.page
      .getByTestId('maintenance-window-banner')
      .filter({ hasText: /^Maintenance du serveur en cours\. Fin prévue (le \S+ )?à \d\d:\d\d\.$/ })
      .waitFor();

    await list
      .getByRole('button', { name: 'Annuler la fenêtre « Maintenance du serveur en cours »' })
      .click();
    // Running, it is stopped now; the safe choice keeps it.
    const dialog = admin.page.getByRole('dialog', { name: 'Arrêter cette fenêtre maintenant ?' });
    await dialog.getByRole('button', { name: 'Garder la fenêtre' }).waitFor();
    await dialog.getByRole('button', { name: 'Arrêter la fenêtre' }).click();
    await admin.page.getByText('Fenêtre de maintenance annulée.').waitFor();
    await list.getByText('Annulée — Maintenance du serveur en cours').waitFor();
    await list.getByText(/arrêtée avant la fin prévue/).waitFor();
    await banner.waitFor({ state: 'detached' });
    // Other tabs get it pushed (socket) or at their next poll; a reload shows it at once.
    await visitor.page.reload();
    await visitor.page.getByRole('heading').first().waitFor();
    expect(await visitor.page.getByTestId('maintenance-window-banner').count()).toBe(0);
    expect([...admin.errors, ...visitor.errors]).toEqual([]);
    await admin.close();
    await visitor.close();
  });

  it('a customer chooses reminders and the digest; a Discord webhook that answers 404 shows failing with the error', async () => {
    const customer = await shared.server.createUser();
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, customer.user.username, customer.password);
    await page.goto('/account/notifications');
    const channels = page.getByRole('region', { name: 'Canaux des alertes' });
    await channels
      .getByLabel('Rappel tant qu’un incident dure')
      .selectOption({ label: 'Toutes les 6 heures' });
    await channels.getByLabel('E-mail : un résumé par jour au lieu d’un e-mail par alerte').check();
    await channels.getByLabel('Sur Discord (webhook)').check();
    await channels.getByLabel('Adresse du webhook Discord').fill(WEBHOOK);
    await channels.getByRole('button', { name: 'Enregistrer les canaux' }).click();
    await page.getByText('Canaux enregistrés.').waitFor();

    discord.nextAnswers.push({ status: 404 });
    await channels.getByRole('button', { name: 'Envoyer un test sur Discord' }).click();
    await vi.waitFor(async () => {
      const [failing] = await shared.server.ctx.db
        .select()
        .from(alertPreferences)
        .where(
          and(eq(alertPreferences.userId, customer.user.id), isNotNull(alertPreferences.discordFailingSince)),
        );
      expect(failing).toBeDefined();
    });
    await page.reload();
    await channels.getByTestId('channel-failing-discord').filter({ hasText: 'HTTP 404' }).waitFor();
    await shoot(page, 'channels-failing');
    expect(await channels.getByLabel('Rappel tant qu’un incident dure').inputValue()).toBe('6');
    expect(
      await channels.getByLabel('E-mail : un résumé par jour au lieu d’un e-mail par alerte').isChecked(),
    ).toBe(true);
    // Told in-app once.
    await page
      .locator('[data-testid="notification"]')
      .filter({ hasText: 'Vos alertes Discord n’arrivent plus' })
      .waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});
