import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { RELEASE_PART_BYTES } from '@bot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createRelease,
  publishRelease,
  storeReleasePart,
} from '../apps/server/src/modules/releases/index.ts';
import { updateSettings } from '../apps/server/src/modules/settings/index.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser();
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A small build published straight through the service (the first journey covers the page). */
async function published(version: string, channel: 'stable' | 'beta') {
  const { ctx } = shared.server;
  const actor = { id: null, username: null, ip: null };
  const bytes = Buffer.from(`build ${version}`);
  const draft = await createRelease(ctx, {
    version,
    channel,
    notes: '',
    fileName: `bot-agent-${version}.zip`,
    size: bytes.length,
    actor,
  });
  await storeReleasePart(ctx, { id: draft.id, index: 0, bytes });
  await publishRelease(ctx, { id: draft.id, parts: 1, sha256: sha256(bytes), actor });
}

describe('agent releases in the browser', () => {
  // Offered to every customer at once (staged rollouts have their own tests, decision 910).
  beforeAll(() =>
    updateSettings(shared.server.ctx, {
      patch: { releaseRolloutPercent: 100 },
      actor: { id: null, username: null, ip: null },
    }),
  );
  it('staff publish a build; a customer downloads it from the bot page and gets the same bytes', async () => {
    // Over one part: the page sends it in two.
    const build = randomBytes(RELEASE_PART_BYTES + 300_000);
    const staff = await shared.server.createUser({ permissions: ['can_manageSettings'] });
    const admin = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(admin.page, staff.user.username, staff.password);
    await admin.page.goto('/admin/releases');
    await expectHeading(admin.page, 'Versions du bot');
    await admin.page.getByText('Aucune version publiée').waitFor();

    await admin.page.getByRole('button', { name: 'Publier une version' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Publier une version du bot' });
    // Nothing chosen: the form says what is missing, in French, and sends nothing.
    await dialog.getByRole('button', { name: 'Publier' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Choisissez le fichier du bot.' }).waitFor();
    await dialog.getByLabel('Fichier du bot').setInputFiles({
      name: 'bot-agent-2.3.0.zip',
      mimeType: 'application/zip',
      buffer: build,
    });
    // The version is read from the file's name.
    expect(await dialog.getByLabel('Version', { exact: true }).inputValue()).toBe('2.3.0');
    await dialog.getByLabel('Notes de version').fill('Récolte plus rapide.');
    await dialog.getByRole('button', { name: 'Publier' }).click();
    await admin.page.getByText('Version 2.3.0 publiée.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await admin.page.getByTestId('release-sha256').getAttribute('data-sha256')).toBe(sha256(build));

    // The specification opens /account/mybot with both bot permissions.
    const customer = await shared.server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] });
    const client = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(client.page, customer.user.username, customer.password);
    await client.page.goto('/account/mybot');
    const card = client.page.getByTestId('download-card');
    await card.getByTestId('download-version').getByText('2.3.0').waitFor();
    await card.getByText('Récolte plus rapide.').waitFor();
    expect(await card.getByTestId('download-sha256').textContent()).toBe(sha256(build));

    const [download] = await Promise.all([
      client.page.waitForEvent('download'),
      card.getByRole('link', { name: 'Télécharger bot-agent-2.3.0.zip' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('bot-agent-2.3.0.zip');
    const saved = await download.path();
    expect(sha256(await readFile(saved))).toBe(sha256(build));

    // Staff see the download counted.
    await admin.page.reload();
    await admin.page
      .getByRole('row', { name: /2\.3\.0/ })
      .getByRole('cell', { name: '1', exact: true })
      .waitFor();
    expect([...admin.errors, ...client.errors]).toEqual([]);
    await admin.close();
    await client.close();
  });

  it('the started page offers the download to customers and says why to others', async () => {
    const visitor = await openPage(shared.browser, shared.server.url);
    await visitor.page.goto('/started');
    await visitor.page.getByRole('link', { name: 'Se connecter pour télécharger le bot' }).waitFor();

    const noPackage = await shared.server.createUser();
    await signInThroughForm(visitor.page, noPackage.user.username, noPackage.password);
    await visitor.page.goto('/started');
    await visitor.page
      .getByText('Le téléchargement est réservé aux comptes ayant une offre active')
      .waitFor();
    await visitor.close();

    await published('3.0.0', 'stable');
    await published('3.1.0-beta.1', 'beta');
    const customer = await shared.server.createUser({ permissions: ['can_useTreasure'] });
    const client = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(client.page, customer.user.username, customer.password);
    await client.page.goto('/started');
    const card = client.page.getByTestId('download-card');
    await card.getByRole('link', { name: 'Télécharger bot-agent-3.0.0.zip' }).waitFor();
    await card.getByRole('button', { name: 'Bêta' }).click();
    await card.getByRole('link', { name: 'Télécharger bot-agent-3.1.0-beta.1.zip' }).waitFor();
    // The choice is remembered on this browser.
    await client.page.reload();
    await card.getByRole('link', { name: 'Télécharger bot-agent-3.1.0-beta.1.zip' }).waitFor();
    expect(client.errors).toEqual([]);
    await client.close();
  });
});
