import { readFile } from 'node:fs/promises';
import { REDACTED } from '@bot/bot-agent';
import { afterAll, expect, it } from 'vitest';
import { type LiveBot, startLiveBot } from './live-helpers.ts';
import { openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser();
const bots: LiveBot[] = [];
afterAll(async () => {
  for (const bot of bots) await bot.stop().catch(() => undefined);
});

const PHONE = { width: 390, height: 844 };

it('an owner on a phone reads their bot’s log live, filters, pauses, downloads, and closing stops the stream', async () => {
  const bot = await startLiveBot(shared.server);
  bots.push(bot);
  bot.client.log.info('Démarrage : route Frênes chargée');
  bot.client.log.warn(`Clé ${bot.client.lease?.token ?? ''} relue`);
  const { page, errors, close } = await openPage(shared.browser, shared.server.url, { viewport: PHONE });
  await signInThroughForm(page, bot.owner.user.username, bot.owner.password);
  await page.goto('/account/mybot');
  const journal = page.getByRole('region', { name: 'Journal du bot' });
  expect(bot.client.log.isStreaming).toBe(false);

  await journal.getByRole('button', { name: 'Ouvrir le journal' }).click();
  const lines = journal.getByRole('log', { name: 'Lignes du journal du bot' });
  // What the agent wrote before anyone read it comes first, its secret already removed.
  await lines.getByText('Démarrage : route Frênes chargée').waitFor();
  await lines.getByText(`Clé ${REDACTED} relue`).waitFor();
  await journal.getByText('En direct', { exact: false }).waitFor();
  expect(bot.client.log.isStreaming).toBe(true);

  bot.client.log.error('Compte bloqué : chemin introuvable');
  await lines.getByText('Compte bloqué : chemin introuvable').waitFor();

  // Filter by level, then search.
  await journal.getByLabel('Niveau minimal').selectOption('error');
  await expect.poll(() => lines.locator('[data-level]').count()).toBe(1);
  await journal.getByLabel('Niveau minimal').selectOption('debug');
  await journal.getByRole('searchbox', { name: 'Rechercher' }).fill('frenes');
  await expect
    .poll(() => lines.locator('[data-level]').allInnerTexts())
    .toEqual([expect.stringContaining('Démarrage : route Frênes chargée')]);
  await journal.getByRole('searchbox', { name: 'Rechercher' }).fill('');

  // Paused, a new line waits; resumed, it shows.
  await journal.getByTestId('bot-log-pause').click();
  bot.client.log.info('Ligne arrivée pendant la pause');
  await journal.getByRole('button', { name: 'Reprendre le défilement (1 nouvelle ligne)' }).waitFor();
  expect(await lines.getByText('Ligne arrivée pendant la pause').count()).toBe(0);
  await journal.getByTestId('bot-log-pause').click();
  await lines.getByText('Ligne arrivée pendant la pause').waitFor();

  // The download holds every line, one per line.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    journal.getByRole('button', { name: 'Télécharger (.txt)' }).click(),
  ]);
  const text = await readFile((await download.path()) as string, 'utf8');
  expect(text).toContain('[ERROR] Compte bloqué : chemin introuvable');
  expect(text.trim().split('\n')).toHaveLength(4);
  expect(text).not.toContain(bot.client.lease?.token ?? 'no lease');

  // Nothing fits sideways on a phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await journal.getByRole('button', { name: 'Fermer le journal' }).click();
  await expect.poll(() => bot.client.log.isStreaming, { timeout: 10_000 }).toBe(false);
  expect(errors).toEqual([]);
  await close();
});

it('staff read a customer’s bot log from the admin user page', async () => {
  const bot = await startLiveBot(shared.server);
  bots.push(bot);
  const staff = await shared.server.createUser({ permissions: ['can_manageUsers'] });
  const { page, errors, close } = await openPage(shared.browser, shared.server.url);
  await signInThroughForm(page, staff.user.username, staff.password);
  await page.goto(`/admin/users/${bot.owner.user.id}`);
  const journal = page.getByRole('region', { name: 'Journal du bot' });
  await journal.getByRole('button', { name: 'Ouvrir le journal' }).click();
  await journal.getByText('En direct', { exact: false }).waitFor();
  bot.client.log.warn('Connexion au jeu refusée : maintenance');
  await journal.getByText('Connexion au jeu refusée : maintenance').waitFor();
  expect(errors).toEqual([]);
  await close();
});
