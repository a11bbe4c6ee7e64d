import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './harness.ts';
import { createBotOwner } from './helpers/realtime.ts';

/**
 * Issue 43, item 10: a year-0000 date in a list's period (`?from=0000-01-01T00:00:00Z`) passed
 * validation, reached PostgreSQL, which holds no year 0, and answered 500 with the SQL in the log.
 * Every date a list or export filters on is now refused with a 400 before any query, in French.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let token: string;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ onLogLine: (line) => logLines.push(line) });
  call = apiClient(server);
  token = (await server.createUser({ permissions: ['can_manageAudit', 'can_manageSettings'] })).token;
});
afterAll(() => server.close());

const LISTS = ['/admin/audit', '/admin/audit/export.csv', '/admin/payments', '/admin/payments/export.csv'];

describe('dates out of range on the lists and exports (issue 43)', () => {
  it.each(LISTS)(
    '%s: a year-0000 or year-10000 period is a 400 naming the bounds, never a 500',
    async (list) => {
      const before = logLines.length;
      for (const query of [
        'from=0000-01-01T00:00:00Z',
        'to=0000-01-01T00:00:00Z',
        'from=1969-12-31T23:59:59Z',
        // Written 9999, it is year 10000 in UTC: a Date prints it '+010000-…', which PostgreSQL refuses.
        'to=9999-12-31T23:59:59-14:00',
      ]) {
        const answer = await call('GET', `${list}?${query}`, undefined, token);
        expect(answer, query).toMatchObject({
          status: 400,
          body: { code: 'VALIDATION_ERROR', error: expect.stringContaining('entre 1970 et 9999') },
        });
      }
      const logged = logLines.slice(before).join('\n');
      expect(logged).not.toMatch(/select|"level":50/i);
    },
  );

  it.each(LISTS)('%s: the bounds themselves are accepted', async (list) => {
    const answer = await call(
      'GET',
      `${list}?from=1970-01-01T00:00:00Z&to=9999-12-31T23:59:59.999Z`,
      undefined,
      token,
    );
    expect(answer.status).toBe(200);
  });
});

describe('dates out of range in what staff write (issue 43)', () => {
  const YEAR_0 = '0000-01-01T00:00:00Z';
  const YEAR_10000 = '9999-12-31T23:59:59-14:00';
  const refused = {
    status: 400,
    body: { code: 'VALIDATION_ERROR', error: expect.stringContaining('entre 1970 et 9999') },
  };

  it('a voucher’s start or end out of range is a 400, never a 500', async () => {
    const admin = (await server.createUser({ isAdministrator: true })).token;
    for (const field of ['startsAt', 'endsAt']) {
      for (const date of [YEAR_0, YEAR_10000]) {
        const answer = await call(
          'POST',
          '/admin/vouchers',
          { kind: 'percent', percentOff: 10, [field]: date },
          admin,
        );
        expect(answer, `${field}=${date}`).toMatchObject(refused);
      }
    }
  });

  it('a permission grant ending past 9999 is a 400, never a 500', async () => {
    const admin = (await server.createUser({ isAdministrator: true })).token;
    const { user } = await server.createUser();
    const answer = await call(
      'POST',
      `/admin/users/${user.id}/grants`,
      { permission: 'can_manageVoucher', expiresAt: YEAR_10000 },
      admin,
    );
    expect(answer).toMatchObject(refused);
  });

  it('a maintenance window ending past 9999 is a 400, never a 500', async () => {
    const admin = (await server.createUser({ isAdministrator: true })).token;
    const answer = await call(
      'POST',
      '/admin/maintenance-windows',
      { startsAt: '9999-12-31T00:00:00Z', endsAt: YEAR_10000, message: 'Mise à jour', scope: 'all' },
      admin,
    );
    expect(answer).toMatchObject(refused);
  });
});

describe('dates out of range from an agent (issue 43)', () => {
  it('a crash dated year 0000 opens no session and is a 400, never a 500', async () => {
    const owner = await createBotOwner(server);
    const answer = await call('POST', '/bot/sessions', {
      accessKey: owner.accessKey,
      hwid: owner.hwid,
      version: '1.0.0',
      lastCrash: { version: '1.0.0', at: '0000-01-01T00:00:00Z', message: 'Accès mémoire invalide' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', error: expect.stringContaining('entre 1970 et 9999') },
    });
  });
});
