import { describe, expect, it } from 'vitest';
import { expectHeading, openPage, serverAndBrowser, unexpectedErrors } from './support/browser.ts';

const shared = serverAndBrowser();

describe('hosting and error pages', () => {
  it('serves the runtime config, the build id and the app shell from the server', async () => {
    const config = await fetch(`${shared.server.url}/config.json`);
    expect(config.status).toBe(200);
    expect(config.headers.get('cache-control')).toBe('no-store');
    const body = (await config.json()) as Record<string, unknown>;
    const build = (await (await fetch(`${shared.server.url}/build.json`)).json()) as { buildId: string };
    expect(body).toEqual({
      apiBaseUrl: '/api',
      socketUrl: '',
      buildId: build.buildId,
      buildCheckIntervalMs: 60_000,
    });

    for (const path of ['/', '/login', '/account/whitlist', '/admin/users/123', '/account/']) {
      const response = await fetch(`${shared.server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
    const unknownApi = await fetch(`${shared.server.url}/api/nope`);
    expect(unknownApi.status).toBe(404);
    expect(await unknownApi.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await fetch(`${shared.server.url}/.vite/manifest.json`)).status).toBe(404);
  });

  it('gives hashed assets a long cache', async () => {
    const html = await (await fetch(`${shared.server.url}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const response = await fetch(`${shared.server.url}${script}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers HTTP 404 and shows the 404 page for a path outside the route table', async () => {
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    const response = await page.goto('/this/page/does-not-exist');
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.title()).toBe('Page Not Found');
    await expectHeading(page, 'Page not found');
    expect(await page.getByTestId('error-status').textContent()).toBe('404');
    // The browser reports the 404 document itself; nothing else may fail.
    expect(unexpectedErrors(errors, 404)).toEqual([]);
    await close();
  });

  it('renders every public page in French, dark, without console errors', async () => {
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    const expected: Record<string, string> = {
      '/': 'Votre bot travaille, vous gardez la main',
      '/login': 'Connexion',
      '/register': 'Inscription',
      '/forgot-password': 'Mot de passe oublié',
      '/started': 'Bien démarrer',
    };
    for (const [path, heading] of Object.entries(expected)) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expectHeading(page, heading, path);
    }
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(15, 20, 25)');
    expect(errors).toEqual([]);
    await close();
  });

  it('keeps the true 404 once the service worker controls the page', async () => {
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await page.goto('/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
      }
    });
    const shell = await page.goto('/account/whitlist');
    expect(shell?.status()).toBe(200);
    const missing = await page.goto('/not/a/page');
    expect(missing?.status()).toBe(404);
    await expectHeading(page, 'Page not found');
    expect(unexpectedErrors(errors, 404)).toEqual([]);
    await close();
  });

  it('shows why an activation link failed', async () => {
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await page.goto('/login?username=personne&token=jeton-invalide');
    await page.getByTestId('activation-failed').waitFor();
    expect(await page.getByTestId('activation-failed').textContent()).toMatch(/invalide|expiré|introuvable/i);
    expect(errors.filter((error) => !/status of 4\d\d/.test(error))).toEqual([]);
    await close();
  });
});
