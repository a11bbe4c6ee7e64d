import { DEFAULT_SETTINGS, type SiteSettings } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { announce } from '../../../test/helpers/events.ts';
import { auditLog } from '../audit/index.ts';
import { getSettings } from './settings.service.ts';
import { settings } from './settings.table.ts';

/**
 * What is stored reads back exactly as written, on whichever engine the run uses (CI runs this file
 * on PGlite and on PostgreSQL): a string that looks like JSON stays a string, and one bad stored
 * value never drags the others back to their defaults.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let manager: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  manager = await server.createUser({ isAdministrator: true });
});
afterAll(() => server.close());

/** Strings that change type or shape when a layer parses them as JSON or trims them. */
const awkwardText = fc.oneof(
  fc.constantFrom(
    '2026',
    'true',
    'false',
    'null',
    '[]',
    '{}',
    '"quoted"',
    '{"a":1}',
    '1e3',
    '-0',
    ' ',
    '  padded  ',
    '\n',
    '🤖 ✨ été',
    'é'.repeat(500),
  ),
  fc.string({ maxLength: 500 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.json({ maxDepth: 2 }).filter((text) => text.length <= 500),
);

const read = async (): Promise<SiteSettings> =>
  (await call<{ data: SiteSettings }>('GET', '/admin/settings', undefined, manager.token)).body.data;

describe('settings storage', () => {
  it('a string that looks like JSON is stored and read back unchanged, every other setting intact', async () => {
    const strict = {
      registrationOpen: false,
      minBotVersion: '1.5.0',
      maintenanceMessage: 'Retour à 18 h',
      hwidResetCooldownHours: 12,
    };
    expect((await call('PUT', '/admin/settings', strict, manager.token)).status).toBe(200);

    const answer = await call<{ data: SiteSettings }>(
      'PUT',
      '/admin/settings',
      { announcement: '2026' },
      manager.token,
    );

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ ...strict, announcement: '2026' });
    expect(await read()).toMatchObject({ ...strict, announcement: '2026' });
    const [entry] = await server.ctx.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.action, 'settings.update'))
      .orderBy(auditLog.at)
      .limit(1)
      .offset(1);
    expect(entry?.after).toEqual({ announcement: '2026' });
  });

  it('property: every text setting reads back exactly as written, the others intact', async () => {
    await fc.assert(
      fc.asyncProperty(
        awkwardText,
        awkwardText,
        fc.integer({ min: 0, max: 24 * 365 }),
        async (announcement, message, hours) => {
          const written = { announcement, maintenanceMessage: message, hwidResetCooldownHours: hours };
          const before = await read();
          const answer = await call<{ data: SiteSettings }>('PUT', '/admin/settings', written, manager.token);
          expect(answer.status).toBe(200);
          const after = await read();
          expect(after).toEqual({ ...before, ...written });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a value longer than its limit is refused with 400, nothing changed', async () => {
    const before = await read();
    const answer = await call<{ code: string }>(
      'PUT',
      '/admin/settings',
      { announcement: 'x'.repeat(10_240) },
      manager.token,
    );
    expect(answer.status).toBe(400);
    expect(await read()).toEqual(before);
  });

  it('one bad stored value falls back alone; a security setting fails closed', async () => {
    const { ctx } = server;
    const strict = { announcement: 'Bonjour', hwidResetCooldownHours: 6, isSnow: true };
    expect((await call('PUT', '/admin/settings', strict, manager.token)).status).toBe(200);
    // Values a later version, a manual edit or a restore could leave behind.
    for (const [key, value] of [
      ['botOfflineTimeoutSeconds', 'soon'],
      ['registrationOpen', 'yes'],
      ['staffTwoFactorRequired', 0],
      ['maintenanceMode', []],
      ['minBotVersion', 'latest'],
    ] as const) {
      await ctx.db
        .insert(settings)
        .values({ key, value })
        .onConflictDoUpdate({ target: settings.key, set: { value } });
    }
    await announce(ctx, 'settings.changed', { keys: [] });

    const value = await getSettings(ctx);

    expect(value).toMatchObject(strict);
    expect(value.botOfflineTimeoutSeconds).toBe(DEFAULT_SETTINGS.botOfflineTimeoutSeconds);
    expect(value.registrationOpen).toBe(false);
    expect(value.staffTwoFactorRequired).toBe(true);
    expect(value.maintenanceMode).toBe(true);
    expect(value.minBotVersion).not.toBe(DEFAULT_SETTINGS.minBotVersion);
  });
});
