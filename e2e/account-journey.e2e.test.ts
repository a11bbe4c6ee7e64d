import { hashHwidComponents } from '@bot/bot-agent';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../apps/server/test/harness.ts';
import {
  expectHeading,
  openPage,
  readAuthState,
  serverAndBrowser,
  signInThroughForm,
  unexpectedErrors,
  waitForApp,
  waitForPath,
} from './support/browser.ts';

const shared = serverAndBrowser();

/** Failed requests the browser logs itself when a test provokes them on purpose. */

describe('account journeys', () => {
  it('registers, activates from the mail link, signs in, keeps the session, browses and signs out', async () => {
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    const username = `joueur${Date.now().toString(36)}`;
    const email = `${username}@example.test`;

    const sponsor = await shared.server.createUser();
    await page.goto(`/register?ref=${sponsor.user.username}`);
    // The prerendered copy knows no query string: the app fills the sponsor in once it runs.
    await waitForApp(page);
    expect(await page.locator('input[name="referral"]').inputValue()).toBe(sponsor.user.username);
    await page.locator('input[name="username"]').fill(username);
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.getByTestId('register-success').waitFor();

    const mail = await shared.server.mail.waitFor({ to: email });
    const link = /https?:\/\/\S+\/login\?username=[^\s"<>]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByTestId('activation-success').waitFor();
    expect(await page.locator('input[name="username"]').inputValue()).toBe(username);
    await page.locator('input[name="password"]').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await waitForPath(page, '/account');
    await expectHeading(page, 'Mon compte');

    const state = await readAuthState(page);
    expect(Object.keys(state ?? {}).sort()).toEqual([
      'accesToken',
      'betaUserId',
      'isSnow',
      'permissions',
      'token',
      'user',
    ]);
    expect(state).toMatchObject({ accesToken: null, betaUserId: null, isSnow: false, permissions: [] });
    expect(typeof state?.token).toBe('string');
    expect(state?.user).toMatchObject({
      username,
      email,
      referral: sponsor.user.username,
      Policy: { IsAdministrator: false },
    });

    await page.reload();
    await expectHeading(page, 'Mon compte');
    expect(await page.getByTestId('profile-username').textContent()).toBe(username);

    for (const [label, path, heading] of [
      ['Boutique', '/account/marketplace', 'Boutique'],
      ['Mes paiements', '/account/payments', 'Mes paiements'],
      ['Liste blanche', '/account/whitlist', 'Liste blanche'],
      ['Mon compte', '/account', 'Mon compte'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Mon espace' }).getByRole('link', { name: label }).click();
      await waitForPath(page, path);
      await expectHeading(page, heading);
    }

    // Without a bot package the bot page sends the customer to the marketplace.
    await page.goto('/account/mybot');
    await waitForPath(page, '/account/marketplace');
    // Told what to buy, as information (not a red error).
    await page.locator('.Toastify__toast--info', { hasText: 'demande une offre active' }).waitFor();

    await page.goto('/account');
    await page.locator('input[name="discordId"]').fill('joueur#1234');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Identifiant Discord enregistré.').waitFor();
    await page.reload();
    await expect.poll(() => page.locator('input[name="discordId"]').inputValue()).toBe('joueur#1234');
    await page.getByRole('button', { name: 'Retirer' }).click();
    await page.getByText('Identifiant Discord retiré.').waitFor();
    expect((await readAuthState(page))?.user).toMatchObject({ discordId: null });

    await page.getByRole('button', { name: 'Afficher la clé' }).click();
    await expect.poll(() => page.getByTestId('bot-key').inputValue()).toMatch(/^[A-Za-z0-9_-]{16,}$/);

    await page.getByTestId('logout').click();
    await waitForPath(page, '/');
    expect(await readAuthState(page)).toMatchObject({ token: null, user: null, accesToken: null });
    await page.goto('/account');
    await waitForPath(page, '/login?redirect=%2Faccount');

    expect(errors).toEqual([]);
    await close();
  });

  it('sends an anonymous visitor of account pages to /login, then back after sign-in', async () => {
    const { user, password } = await shared.server.createUser();
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    for (const path of ['/account', '/account/marketplace', '/account/mybot', '/account/whitlist']) {
      await page.goto(path);
      await waitForPath(page, `/login?redirect=${encodeURIComponent(path)}`);
    }
    await page.goto('/account/payments');
    await waitForPath(page, '/login?redirect=%2Faccount%2Fpayments');
    await page.locator('input[name="username"]').fill(user.username);
    await page.locator('input[name="password"]').fill(password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await waitForPath(page, '/account/payments');
    await expectHeading(page, 'Mes paiements');
    expect(errors).toEqual([]);
    await close();
  });

  it('opens the bot page to a customer holding both bot permissions', async () => {
    const { user, password } = await shared.server.createUser({
      permissions: ['can_useGathering', 'can_useTreasure'],
    });
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, user.username, password, '/account');
    expect((await readAuthState(page))?.permissions).toEqual(
      expect.arrayContaining(['can_useGathering', 'can_useTreasure']),
    );
    await page.goto('/account/mybot');
    await waitForPath(page, '/account/mybot');
    await expectHeading(page, 'Mon bot');
    expect(errors).toEqual([]);
    await close();
  });

  it('ends a session revoked on the server on /login with the state cleared', async () => {
    const { user, password } = await shared.server.createUser();
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, user.username, password);
    const token = (await readAuthState(page))?.token as string;

    const revoked = await fetch(`${shared.server.api}/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(revoked.status).toBeLessThan(300);

    await page.reload(); // the account area asks for /me/info: 401
    await waitForPath(page, '/login');
    await expect.poll(async () => (await readAuthState(page))?.token ?? null).toBeNull();
    expect(await readAuthState(page)).toMatchObject({ user: null, accesToken: null });
    expect(unexpectedErrors(errors, 401)).toEqual([]);
    await close();
  });

  it('shows the French server error on a wrong password and offers to resend the activation mail', async () => {
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    const active = await shared.server.createUser();
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(active.user.username);
    await page.locator('input[name="password"]').fill('mauvais-mot-de-passe');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByText("Nom d'utilisateur ou mot de passe incorrect.").waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');

    const dormant = await shared.server.createUser({ activated: false });
    await page.locator('input[name="username"]').fill(dormant.user.username);
    await page.locator('input[name="password"]').fill(dormant.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('button', { name: 'Renvoyer l’e-mail' }).click();
    // Same words whether a mail went or the mailbox already held its links (decision 914).
    await page
      .getByText('les liens déjà reçus restent valables, 3 au plus à la fois', { exact: false })
      .waitFor();
    const mail = await shared.server.mail.waitFor({ to: dormant.user.email });
    expect(mail.text).toContain(`/login?username=${encodeURIComponent(dormant.user.username)}`);
    expect(unexpectedErrors(errors, 401, 403)).toEqual([]);
    await close();
  });

  it('uses a drawer below the lg breakpoint (1280 px)', async () => {
    const { user, password } = await shared.server.createUser();
    const { page, errors, close } = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 390, height: 844 },
    });
    await signInThroughForm(page, user.username, password);
    const menu = page.getByRole('navigation', { name: 'Mon espace' });
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await menu.getByRole('link', { name: 'Boutique' }).click();
    await waitForPath(page, '/account/marketplace');
    await expectHeading(page, 'Boutique');
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await close();
  });

  it('resets a forgotten password from the mail link, then changes it from the account page', async () => {
    const { user } = await shared.server.createUser();
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await page.goto('/forgot-password');
    await page.locator('input[name="email"]').fill(user.email);
    await page.getByRole('button', { name: 'Envoyer le lien' }).click();
    // The same words whether a mail went or the mailbox already held its links (decision 914).
    const sent = await page.getByTestId('forgot-sent').textContent();
    expect(sent).toContain('Si un compte correspond');
    expect(sent).toContain('les liens déjà reçus restent valables, 3 au plus à la fois');
    expect(sent).not.toContain('vient d’être envoyé');

    const mail = await shared.server.mail.waitFor({ to: user.email });
    const link = /https?:\/\/\S+\/forgot-password\?token=[^\s"<>]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await expectHeading(page, 'Nouveau mot de passe');
    const renewed = 'Marmotte-Lanterne-Violon-58';
    await page.locator('input[name="password"]').fill(renewed);
    await page.locator('input[name="confirmation"]').fill(renewed);
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await waitForPath(page, '/login');
    await signInThroughForm(page, user.username, renewed);

    const changed = 'Boussole-Grenadine-Phare-27';
    await page.locator('input[name="currentPassword"]').fill(renewed);
    await page.locator('input[name="newPassword"]').fill(changed);
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await page.getByText('Mot de passe modifié.', { exact: false }).waitFor();
    await page.getByTestId('logout').click();
    await waitForPath(page, '/');
    await signInThroughForm(page, user.username, changed);
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the bound PC and unbinds it once, with the next possible date', async () => {
    const { user, password, token } = await shared.server.createUser({ permissions: ['can_useGathering'] });
    const key = (await (
      await fetch(`${shared.server.api}/me/bot-key`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { data: { accessKey: string } };
    const hwid = 'PC-E2E-0001-ABCD';
    const opened = await fetch(`${shared.server.api}/bot/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: key.data.accessKey, hwid, version: '1.0.0' }),
    });
    expect(opened.status).toBe(201);

    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, user.username, password);
    await expect.poll(() => page.getByTestId('hwid').textContent()).toBe(hwid);
    expect(await page.getByTestId('bot-key').inputValue()).not.toContain(key.data.accessKey);
    // Destructive: the dialog says what will happen (with the cooldown); cancelling changes nothing.
    await page.getByRole('button', { name: 'Délier mon PC' }).click();
    const dialog = page.getByRole('dialog', { name: 'Délier ce PC ?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('avant 24 h');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('hwid').textContent()).toBe(hwid);
    await page.getByRole('button', { name: 'Délier mon PC' }).click();
    await dialog.getByRole('button', { name: 'Délier mon PC' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Prochaine déliaison possible le', { exact: false }).waitFor();
    expect(await page.getByTestId('hwid').textContent()).toBe('Aucun PC lié pour le moment.');
    expect(await page.getByRole('button', { name: 'Délier mon PC' }).isDisabled()).toBe(true);
    expect((await readAuthState(page))?.user).toMatchObject({ hwid: null });
    expect(errors).toEqual([]);
    await close();
  });

  it('counts a PC whose parts mostly changed since binding as an unbind: the counter and the bot history say so', async () => {
    const { user, password, token } = await shared.server.createUser({
      permissions: ['can_useGathering', 'can_useTreasure'],
    });
    const key = (await (
      await fetch(`${shared.server.api}/me/bot-key`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { data: { accessKey: string } };
    const open = (hwid: string, side: (name: string) => string) =>
      fetch(`${shared.server.api}/bot/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          accessKey: key.data.accessKey,
          hwid,
          version: '1.0.0',
          components: hashHwidComponents({
            machine: side('machine'),
            disk: side('disk'),
            board: side('board'),
            nic: side('nic'),
            cpu: side('cpu'),
          }),
        }),
      });
    const hwid = 'PC-E2E-0002-ABCD';
    // Parts replaced two by two: the second step leaves one of the five parts bound.
    const replaced = (names: string[]) => (name: string) => `${name}-${names.includes(name) ? 'b' : 'a'}`;
    expect((await open(hwid, replaced([]))).status).toBe(201);
    expect((await open('PC-E2E-0002-STEP1', replaced(['nic', 'cpu']))).status).toBe(201);
    expect((await open('PC-E2E-0002-STEP2', replaced(['disk', 'board', 'nic', 'cpu']))).status).toBe(201);

    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, user.username, password);
    await expect.poll(() => page.getByTestId('hwid').textContent()).toBe(hwid);
    const counter = page.getByTestId('hwid-resets-left');
    await counter.waitFor();
    expect(await counter.textContent()).toContain('2 déliaisons restantes sur 30 jours.');
    // The rule as it is: free while more than half of the parts as bound are kept (2 of 5 changed too).
    expect(await counter.textContent()).toContain('compte comme une déliaison');
    expect(await counter.textContent()).toContain('au moins 3 de ses 5 composants');
    expect(await counter.textContent()).not.toContain('un seul composant');
    // The counted change started the cooldown: the card says until when and offers no unbind.
    await page
      .getByTestId('hwid-next-reset')
      .getByText('Prochaine déliaison possible le', { exact: false })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Délier mon PC' }).isDisabled()).toBe(true);

    // Its bound hwid with new parts, within the cooldown: refused, and the bot's history says why.
    expect((await open(hwid, (name) => `${name}-c`)).status).toBe(403);

    await page.goto('/account/mybot');
    const history = page.getByRole('region', { name: 'Historique du bot' });
    const entry = history.locator('li[data-kind="pc_changed"]');
    await entry.getByText('PC modifié : compté comme une déliaison').waitFor();
    expect(await entry.textContent()).toContain(
      'Changés depuis la liaison : disque système, carte mère (BIOS), carte réseau, processeur',
    );
    const refused = history.locator('li[data-kind="pc_refused"]');
    await refused.getByText('Connexion refusée : PC trop modifié depuis la liaison').waitFor();
    expect(await refused.textContent()).toContain('Prochaine déliaison possible le');
    expect(errors).toEqual([]);
    await close();
  });
});
