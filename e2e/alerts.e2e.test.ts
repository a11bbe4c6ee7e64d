import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../apps/server/src/core/ids.ts';
import { evaluateAlerts } from '../apps/server/src/modules/alerts/index.ts';
import { botEvents } from '../apps/server/src/modules/bots/index.ts';
import { mailOutbox } from '../apps/server/src/modules/mail/index.ts';
import { createBotOwner } from '../apps/server/test/helpers/realtime.ts';
import { type LiveBot, startLiveBot } from './live-helpers.ts';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

// The periodic evaluation stays out of the way: the test runs it "two minutes later" itself.
const shared = serverAndBrowser({ alerts: { evaluateEveryMs: 3_600_000 } });
const bots: LiveBot[] = [];

afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

describe('alerts in the browser', () => {
  it('a customer turns the offline alert on, the bot stops, the bell shows 1 and the page lists it', async () => {
    const bot = await startLiveBot(shared.server);
    bots.push(bot);
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, bot.owner.user.username, bot.owner.password);
    await page.goto('/account/mybot');
    const card = page.getByRole('region', { name: 'Alertes' });
    await card.getByLabel('le bot est hors ligne depuis plus de…').check();
    await card.getByLabel('Minutes hors ligne').fill('1');
    await card.getByRole('button', { name: 'Enregistrer les alertes' }).click();
    await page.getByText('Alertes enregistrées.').waitFor();
    await page.locator('[data-testid="notification-bell"][data-unread="0"]').waitFor();

    await bot.stop();
    await vi.waitFor(async () => {
      const stopped = await shared.server.ctx.db
        .select()
        .from(botEvents)
        .where(and(eq(botEvents.hwid, bot.hwid), eq(botEvents.kind, 'disconnected')));
      expect(stopped).toHaveLength(1);
    });
    await evaluateAlerts(shared.server.ctx, new Date(Date.now() + 2 * 60_000));

    await page.reload();
    const bell = page.locator('[data-testid="notification-bell"][data-unread="1"]');
    await bell.waitFor();
    await bell.click();
    await page.waitForURL('**/account/notifications');
    const item = page.locator('[data-testid="notification"][data-unread="true"]');
    await item.filter({ hasText: 'Votre bot est hors ligne' }).waitFor();
    await item.getByRole('button', { name: 'Marquer comme lu' }).click();
    await page.locator('[data-testid="notification"][data-unread="false"]').waitFor();
    await page.locator('[data-testid="notification-bell"][data-unread="0"]').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('staff choose a fleet alert; the mail outbox backs up and the bell of the open admin map rings live', async () => {
    const staff = await shared.server.createUser({ permissions: ['can_manageSettings', 'can_manageMap'] });
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, staff.user.username, staff.password);
    await page.goto('/account/notifications');
    const card = page.getByRole('region', { name: 'Alertes de la flotte' });
    // Both permissions open all five alerts; a threshold out of range is said before sending.
    await card.getByRole('checkbox').nth(4).waitFor();
    expect(await card.getByRole('checkbox').count()).toBe(5);
    await card.getByLabel(/le jeu de clés signé par la clé racine expire dans moins de 14 jours/).waitFor();
    await card.getByLabel(/le déploiement d’une nouvelle version s’arrête de lui-même/).waitFor();
    await card.getByLabel('Seuil (% des bots en ligne)').fill('0');
    await card.getByRole('button', { name: 'Enregistrer les alertes de la flotte' }).click();
    await card.getByText('Entre 1 et 100 %.').waitFor();
    await card.getByLabel('Seuil (% des bots en ligne)').fill('30');
    await card.getByLabel(/un e-mail attend d’être envoyé depuis plus de 10 min/).check();
    await card.getByRole('button', { name: 'Enregistrer les alertes de la flotte' }).click();
    await page.getByText('Alertes de la flotte enregistrées.').waitFor();
    // Staff without a bot choose their channels on this same page.
    const channels = page.getByRole('region', { name: 'Canaux des alertes' });
    await channels.getByLabel('Par e-mail', { exact: true }).check();
    await channels.getByRole('button', { name: 'Enregistrer les canaux' }).click();
    await page.getByText('Canaux enregistrés.').waitFor();
    await card.getByText('Envoyées dans l’application, par e-mail').waitFor();

    // On the live map (its socket open), a mail stuck for twenty minutes: the evaluation rings the bell.
    await page.goto('/admin/map');
    await page.locator('[data-testid="map-connection"][data-state="connected"]').waitFor();
    await page.locator('[data-testid="notification-bell"][data-unread="0"]').waitFor();
    await shared.server.ctx.db.insert(mailOutbox).values({
      id: newId(),
      to: 'client@example.test',
      subject: 'Activation',
      attempts: 3,
      nextAttemptAt: new Date(Date.now() + 3_600_000),
      lastError: 'connect ECONNREFUSED',
      createdAt: new Date(Date.now() - 20 * 60_000),
    });
    await evaluateAlerts(shared.server.ctx);
    // No reload, and well before the bell's 30 s poll: the socket said so.
    await page.locator('[data-testid="notification-bell"][data-unread="1"]').waitFor({ timeout: 10_000 });
    await page.getByTestId('notification-bell').click();
    await page.waitForURL('**/account/notifications');
    await page
      .locator('[data-testid="notification"][data-unread="true"]')
      .filter({ hasText: 'File des e-mails en retard' })
      .waitFor();
    await shared.server.mail.waitFor({ to: staff.user.email, subject: 'File des e-mails en retard' });
    expect(errors).toEqual([]);
    await close();
  });

  it('"Envoyer un test" reaches the mail box and the bell; the alerts card explains the quiet period', async () => {
    // A customer with a bot: the alerts card of "Mon bot" is theirs.
    const customer = await createBotOwner(shared.server);
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1440, height: 900 },
    ]) {
      const { page, errors, close } = await openPage(shared.browser, shared.server.url, {
        viewport,
        blockServiceWorkers: true,
      });
      await signInThroughForm(page, customer.user.username, customer.password);
      await page.goto('/account/notifications');
      const channels = page.getByRole('region', { name: 'Canaux des alertes' });
      // No webhook saved yet: nothing to test on Discord.
      expect(await channels.getByRole('button', { name: 'Envoyer un test sur Discord' }).isDisabled()).toBe(
        true,
      );
      const mailsBefore = shared.server.mail.messages.length;
      await channels.getByRole('button', { name: 'Envoyer un test par e-mail' }).click();
      await page.getByText('Message de test envoyé à votre adresse e-mail.').waitFor();
      const mail = await shared.server.mail.waitFor({
        to: customer.user.email,
        subject: 'Test des alertes',
        after: mailsBefore,
      });
      expect(mail.text).toContain('(heure de Paris)');
      await channels.getByRole('button', { name: 'Envoyer un test dans l’application' }).click();
      await page
        .locator('[data-testid="notification"]')
        .filter({ hasText: 'Test des alertes' })
        .first()
        .waitFor();
      await page.locator('[data-testid="notification-bell"]:not([data-unread="0"])').waitFor();
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(wide).toBe(false);
      await shoot(page, `alerts-notifications-${viewport.width}`);

      await page.goto('/account/mybot');
      const quiet = page.getByTestId('alerts-quiet-period');
      await quiet.waitFor();
      expect(await quiet.textContent()).toContain('quart d’heure');
      await quiet.scrollIntoViewIfNeeded();
      await shoot(page, `alerts-mybot-${viewport.width}`, { fullPage: false });
      expect(errors).toEqual([]);
      await close();
    }
  });
});
