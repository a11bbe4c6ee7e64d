import { describe, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser();

interface Key {
  kid: string;
  purpose: 'lease' | 'release';
  state: 'current' | 'previous' | 'revoked';
}

describe('lease signing keys in the admin settings', () => {
  it('staff change the key in service, then revoke the previous one; the JWKS follows', async () => {
    const call = apiClient(shared.server);
    const admin = await shared.server.createUser({ isAdministrator: true });
    const keys = async () =>
      (await call<{ data: Key[] }>('GET', '/admin/signing-keys', undefined, admin.token)).body.data;
    const published = async () =>
      (
        (await (await fetch(`${shared.server.url}/.well-known/jwks.json`)).json()) as {
          keys: { kid: string; purpose?: string }[];
        }
      ).keys
        // The release manifests' key is published beside them (decision 910); this is about leases.
        .filter((key) => key.purpose === 'lease')
        .map((key) => key.kid);
    const before = (await published())[0] as string; // the first key, made on first need

    const { page, close } = await openPage(shared.browser, shared.server.url, { blockServiceWorkers: true });
    await signInThroughForm(page, admin.user.username, admin.password);
    // A full load: a move inside the app could lose to the sign-in's own redirect still under way.
    await page.goto('/admin/settings');
    await expectHeading(page, 'Paramètres');
    const card = page.getByRole('list', { name: 'Clés de signature' });
    await card.getByText(`${before.slice(0, 12)}… — Baux des bots — Clé en service`).waitFor();

    await page.getByRole('button', { name: 'Changer la clé des baux' }).click();
    await page
      .getByRole('dialog', { name: 'Changer la clé des baux ?' })
      .getByRole('button', { name: 'Changer la clé des baux' })
      .click();
    await card
      .getByText(`${before.slice(0, 12)}… — Baux des bots — Ancienne clé (vérifie encore ce qu’elle a signé)`)
      .waitFor();
    const current = (await keys()).find((key) => key.state === 'current' && key.purpose === 'lease') as Key;
    expect(current.kid).not.toBe(before);
    expect(await published()).toEqual(expect.arrayContaining([before, current.kid]));

    await card
      .getByRole('listitem')
      .filter({ hasText: before.slice(0, 12) })
      .getByRole('button', { name: 'Révoquer' })
      .click();
    await page
      .getByRole('dialog', { name: 'Révoquer cette clé ?' })
      .getByRole('button', { name: 'Révoquer' })
      .click();
    await card.getByText(`${before.slice(0, 12)}… — Baux des bots — Révoquée`).waitFor();
    expect(await published()).toEqual([current.kid]);
    await close();
  });
});
