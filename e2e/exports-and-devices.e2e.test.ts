import { readFile } from 'node:fs/promises';
import { permissionLabel } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { apiClient } from '../apps/server/test/harness.ts';
import { expectHeading, openPage, serverAndBrowser, signInThroughForm } from './support/browser.ts';
import { shoot } from './support/screenshots.ts';

const shared = serverAndBrowser();

describe('exports open cleanly in French spreadsheets; devices read in words', () => {
  it('the roles CSV: UTF-8 BOM, ";", local spreadsheet dates, permission labels', async () => {
    const admin = await shared.server.createUser({ isAdministrator: true });
    const created = await apiClient(shared.server)(
      'POST',
      '/admin/roles',
      { name: 'Support, niveau 2', description: 'Équipe « support »', permissions: ['can_manageAudit'] },
      admin.token,
    );
    expect(created.status).toBe(201);
    const { page, close } = await openPage(shared.browser, shared.server.url, {
      viewport: { width: 1440, height: 900 },
      blockServiceWorkers: true,
    });
    await signInThroughForm(page, admin.user.username, admin.password, '/admin');
    await page.goto('/admin/role');
    await expectHeading(page, 'Rôles');
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exporter en CSV' }).click();
    const file = await (await downloaded).path();
    const bytes = await readFile(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = bytes.subarray(3).toString('utf8').trimEnd().split('\n');
    expect(header).toBe('id;nom;description;permissions;membres;créé le');
    const row = rows.find((line) => line.includes('Support, niveau 2'));
    expect(row).toBeDefined();
    const cells = row!.split(';');
    expect(cells[1]).toBe('Support, niveau 2'); // a comma is no separator here: not even quoted
    expect(cells[3]).toBe(permissionLabel('can_manageAudit'));
    expect(cells[3]).not.toContain('can_');
    expect(cells[5]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await close();
  });

  it('the admin user page names each session’s device in words', async () => {
    const admin = await shared.server.createUser({ isAdministrator: true });
    const customer = await shared.server.createUser();
    const visitor = await openPage(shared.browser, shared.server.url, { blockServiceWorkers: true });
    await signInThroughForm(visitor.page, customer.user.username, customer.password);
    await visitor.close();

    for (const [width, height] of [
      [390, 844],
      [1440, 900],
    ] as const) {
      const { page, close } = await openPage(shared.browser, shared.server.url, {
        viewport: { width, height },
        blockServiceWorkers: true,
      });
      await signInThroughForm(page, admin.user.username, admin.password, '/admin');
      await page.goto(`/admin/users/${customer.user.id}`);
      await expectHeading(page, 'Utilisateur');
      const device = page.getByTestId('session-device').first();
      await device.waitFor();
      // The journeys' browser is Chromium's headless shell: named as such, on Linux.
      expect(await device.textContent()).toMatch(/^Chrome (\(sans interface\) )?sur Linux$/);
      expect(await device.getAttribute('title')).toContain('Mozilla/5.0');
      await device.scrollIntoViewIfNeeded();
      await shoot(page, `admin-user-sessions_${width}`);
      await close();
    }
  });
});
