import { createHash } from 'node:crypto';
import { createBotClient, SimulatedBot } from '@bot/bot-agent';
import { afterAll, expect, it } from 'vitest';
import {
  changeRollout,
  checkRollouts,
  createRelease,
  publishRelease,
  sampleVersions,
  storeReleasePart,
} from '../apps/server/src/modules/releases/index.ts';
import { updateSettings } from '../apps/server/src/modules/settings/index.ts';
import { createBotOwner } from '../apps/server/test/helpers/realtime.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser({ rateLimits: { botSession: { max: 10_000, windowMs: 60_000 } } });
const SYSTEM = { id: null, username: null, ip: null };
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

async function publish(version: string) {
  const { ctx } = shared.server;
  const bytes = Buffer.from(`build ${version}`);
  const draft = await createRelease(ctx, {
    version,
    channel: 'stable',
    notes: '',
    fileName: `bot-${version}.zip`,
    size: bytes.length,
    actor: SYSTEM,
  });
  await storeReleasePart(ctx, { id: draft.id, index: 0, bytes });
  return publishRelease(ctx, {
    id: draft.id,
    parts: 1,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    actor: SYSTEM,
  });
}

async function bots(version: string, count: number, failing = false) {
  const clients = [];
  for (let index = 0; index < count; index += 1) {
    const owner = await createBotOwner(shared.server, { version });
    const client = createBotClient({
      serverUrl: shared.server.url,
      trustRoot: shared.server.trustRoot,
      accessKey: owner.accessKey,
      hwid: owner.hwid,
      version,
    });
    stops.push(() => client.stop());
    await client.connect();
    client.report(new SimulatedBot(owner.hwid, owner.accounts, { failing }).tick());
    clients.push(client);
  }
  return clients;
}

it('a broken build stops itself at its share; staff read why and withdraw it; its bots are sent back', async () => {
  const { ctx } = shared.server;
  await updateSettings(ctx, { patch: { rolloutHaltMinBots: 2 }, actor: SYSTEM });
  const good = await publish('8.0.0');
  await changeRollout(ctx, { id: good.id, percent: 100, actor: SYSTEM });
  await bots('8.0.0', 2);
  await publish('8.1.0');
  const broken = await bots('8.1.0', 2, true);
  await expect
    .poll(async () => (await ctx.live.onlineBots()).filter((bot) => bot.version === '8.1.0').length)
    .toBe(2);
  expect(await checkRollouts(ctx)).toBe(1);
  await sampleVersions(ctx);

  const staff = await shared.server.createUser({ permissions: ['can_manageSettings'] });
  const { page, errors, close } = await openPage(shared.browser, shared.server.url, {
    viewport: { width: 390, height: 844 },
  });
  await signInThroughForm(page, staff.user.username, staff.password);
  await page.goto('/admin/releases');
  await expectHeading(page, 'Versions du bot');
  // The adoption counts the bots online per version.
  await page.getByTestId('adoption').getByRole('cell', { name: '8.1.0' }).waitFor();

  await page.getByRole('button', { name: 'Déploiement de la version 8.1.0' }).click();
  const dialog = page.getByRole('dialog', { name: 'Déploiement de la version 8.1.0' });
  await dialog.getByText('Arrêté automatiquement', { exact: false }).first().waitFor();
  const figures = dialog.getByRole('table', { name: 'Santé comparée des deux versions' });
  const errorRow = figures.getByRole('row', { name: /Comptes de jeu en erreur/ });
  expect(await errorRow.getByRole('cell').allInnerTexts()).toEqual([
    'Comptes de jeu en erreur (%)',
    '100',
    '0',
  ]);
  expect(await figures.getByRole('columnheader').allInnerTexts()).toEqual(['Mesure', '8.1.0', '8.0.0']);

  const toldBack = broken.map(
    (client) =>
      new Promise((resolve) => client.on('updateAvailable', (update) => update.rollback && resolve(update))),
  );
  await dialog.getByLabel('Raison du retrait').fill('Tous les comptes en erreur');
  await dialog.getByRole('button', { name: 'Retirer cette version' }).click();
  await page
    .getByRole('dialog', { name: 'Retirer la version 8.1.0 ?' })
    .getByRole('button', { name: 'Retirer la version' })
    .click();
  await page.getByText('Version 8.1.0 retirée.').waitFor();
  await page.locator('[data-testid="rollout-manage"][data-state="yanked"]').waitFor();
  const updates = (await Promise.all(toldBack)) as { version: string }[];
  expect(updates.map((update) => update.version)).toEqual(['8.0.0', '8.0.0']);

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
  await close();
});
