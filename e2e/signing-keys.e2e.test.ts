import { describe, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';

const shared = serverAndBrowser();

interface Key {
  kid: string;
  purpose: 'lease' | 'release';
  state: 'current' | 'standby' | 'previous' | 'revoked';
}

describe('lease signing keys in the admin settings', () => {
  it('staff read the key set and the command that rotates it, then revoke the key in service: its standby takes over; the JWKS follows', async () => {
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
    const lease = (await keys()).filter((key) => key.purpose === 'lease');
    const before = lease.find((key) => key.state === 'current') as Key;
    const standby = lease.find((key) => key.state === 'standby') as Key;

    const { page, close } = await openPage(shared.browser, shared.server.url, { blockServiceWorkers: true });
    await signInThroughForm(page, admin.user.username, admin.password);
    // A full load: a move inside the app could lose to the sign-in's own redirect still under way.
    await page.goto('/admin/settings');
    await expectHeading(page, 'Paramètres');
    const card = page.getByRole('list', { name: 'Clés de signature' });
    await card.getByText(`${before.kid.slice(0, 12)}… — Baux des bots — Clé en service`).waitFor();
    // The server cannot sign a set (decision 912): the page says how, with the root key file.
    await page.getByText(/Jeu de clés version \d+, signé par la racine/).waitFor();
    await page.getByText('npm run keys:rotate -- --root-key /chemin/vers/racine.jwk').waitFor();
    expect(await page.getByRole('button', { name: 'Changer la clé des baux' }).count()).toBe(0);

    // The staff are told that the expiry is alerted on (holders of the settings permission).
    await page.getByText('alertés 14 jours avant son expiration', { exact: false }).waitFor();

    // Revoking sits in a danger zone of its own, and its dialog says what holds for that key.
    const danger = page.getByRole('region', { name: 'Zone dangereuse : révoquer une clé' });
    const revokeOf = (key: Key) =>
      danger
        .getByRole('listitem')
        .filter({ hasText: key.kid.slice(0, 12) })
        .getByRole('button', { name: 'Révoquer' });
    const dialog = page.getByRole('dialog', { name: 'Révoquer cette clé ?' });
    await revokeOf(standby).click();
    const standbyText = (await dialog.textContent()) ?? '';
    expect(standbyText).toContain('clé de réserve');
    expect(standbyText).not.toContain('qui prend le relais');
    expect(standbyText).toContain('ne peut pas être annulée');
    expect(standbyText).toContain('npm run keys:rotate -- --root-key');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'detached' });

    await revokeOf(before).click();
    expect(await dialog.textContent()).toContain('la clé de réserve prend le relais');
    expect(await dialog.textContent()).toContain('ne peut pas être annulée');
    await page
      .getByRole('dialog', { name: 'Révoquer cette clé ?' })
      .getByRole('button', { name: 'Révoquer' })
      .click();
    await card.getByText(`${before.kid.slice(0, 12)}… — Baux des bots — Révoquée`).waitFor();
    await card.getByText(`${standby.kid.slice(0, 12)}… — Baux des bots — Clé en service`).waitFor();
    expect(await published()).not.toContain(before.kid);
    expect(await published()).toContain(standby.kid);
    await close();
  });
});
