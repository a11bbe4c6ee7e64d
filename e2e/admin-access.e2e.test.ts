import { WEB_ROUTES } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import {
  expectHeading,
  openPage,
  serverAndBrowser,
  signInThroughForm,
  waitForPath,
} from './support/browser.ts';

const shared = serverAndBrowser();

/** Every admin path of the route table, with a real user's id for /admin/users/:id. */
const adminPages = (userId: string) =>
  WEB_ROUTES.filter((route) => route.layout === 'admin').map((route) => ({
    path: route.path.replace(':id', userId),
    heading: route.name,
  }));

describe('admin area', () => {
  it('keeps a customer out of every admin page', async () => {
    const { user, password } = await shared.server.createUser();
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, user.username, password);
    for (const { path } of adminPages(user.id)) {
      await page.goto(path);
      await waitForPath(page, '/account');
      await expectHeading(page, 'Mon compte', path);
    }
    await page.getByText("Vous n'avez pas la permission d'accéder à cette page.").first().waitFor();
    // The customer's menu has no way into the admin area.
    expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('opens only the pages of the permissions a staff member holds', async () => {
    const { user, password } = await shared.server.createUser({ permissions: ['can_manageUsers'] });
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, user.username, password);
    await page.goto('/admin/users');
    await expectHeading(page, 'Utilisateurs');
    expect(new URL(page.url()).pathname).toBe('/admin/users');
    await page.goto('/admin/audit');
    await waitForPath(page, '/account');
    expect(errors).toEqual([]);
    await close();
  });

  it('lets the administrator into every admin page', async () => {
    const { user, password } = await shared.server.createUser({ isAdministrator: true });
    const { page, errors, close } = await openPage(shared.browser, shared.server.url);
    await signInThroughForm(page, user.username, password);
    for (const { path, heading } of adminPages(user.id)) {
      await page.goto(path);
      await expectHeading(page, heading, path);
      expect(new URL(page.url()).pathname, path).toBe(path);
    }
    // In-app navigation through the admin menu.
    const menu = page.getByRole('navigation', { name: 'Administration' });
    await menu.getByRole('link', { name: 'Audit' }).click();
    await waitForPath(page, '/admin/audit');
    await menu.getByRole('link', { name: 'Carte' }).click();
    await waitForPath(page, '/admin/map');
    await expectHeading(page, 'Carte');
    expect(errors).toEqual([]);
    await close();
  });
});
