import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';

/**
 * Issue 43, item 8: staff rank stopped at writes. A `can_manageUsers`-only staff member read the
 * sessions, audit, PCs, orders and whitelist of a user holding more than them. Reads of one user's
 * data now follow the rank rule of writes (docs/decisions/404); lists show outranking accounts by
 * their identity only.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let support: TestUser;
let senior: TestUser;
let customer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  support = await server.createUser({ permissions: ['can_manageUsers'] });
  senior = await server.createUser({ permissions: ['can_manageUsers', 'can_manageSettings'] });
  customer = await server.createUser({ permissions: ['can_useGathering'] });
  admin = await server.createUser({ isAdministrator: true });
});
afterAll(() => server.close());

const READS = ['', '/sessions', '/audit', '/pcs', '/orders', '/whitelist', '/bot'];

describe('reads of one user’s data follow the staff rank (issue 43)', () => {
  it('refuses a can_manageUsers-only staff member every read of a user holding can_manageSettings', async () => {
    for (const read of READS) {
      const answer = await call('GET', `/admin/users/${senior.user.id}${read}`, undefined, support.token);
      expect(answer, read).toMatchObject({ status: 403, body: { code: 'OUTRANKED' } });
      expect((answer.body as { details: { missing: string[] } }).details.missing, read).toEqual([
        'can_manageSettings',
      ]);
    }
    for (const read of READS) {
      const answer = await call('GET', `/admin/users/${admin.user.id}${read}`, undefined, senior.token);
      expect(answer, read).toMatchObject({ status: 403, body: { code: 'ADMINISTRATOR_ONLY' } });
    }
  });

  it('still answers the same reads about a customer, a peer, oneself, and to an administrator', async () => {
    const peer = await server.createUser({ permissions: ['can_manageUsers'] });
    for (const read of READS) {
      for (const [reader, target] of [
        [support, customer],
        [support, peer],
        [support, support],
        [admin, senior],
      ] as const) {
        const answer = await call('GET', `/admin/users/${target.user.id}${read}`, undefined, reader.token);
        expect(answer.status, `${read} of ${target.user.username}`).toBe(200);
      }
    }
  });
});

describe('lists and exports show outranking accounts by their identity only (issue 43)', () => {
  type Row = { id: string; username: string; email: string; hwid: string | null; discordId: string | null };

  it('blanks the e-mail, hwid and Discord id of outranking accounts in the user list and its CSV', async () => {
    await call(
      'PUT',
      `/admin/users/${senior.user.id}/discord`,
      { discordId: '123456789012345678' },
      admin.token,
    );
    const list = await call<{ data: Row[] }>('GET', '/admin/users?pageSize=100', undefined, support.token);
    expect(list.status).toBe(200);
    const seniorRow = list.body.data.find((row) => row.id === senior.user.id);
    expect(seniorRow).toMatchObject({
      username: senior.user.username,
      email: '',
      discordId: null,
      hwid: null,
    });
    expect(list.body.data.find((row) => row.id === customer.user.id)?.email).toBe(customer.user.email);
    // An administrator reads everything.
    const full = await call<{ data: Row[] }>('GET', '/admin/users?pageSize=100', undefined, admin.token);
    expect(full.body.data.find((row) => row.id === senior.user.id)).toMatchObject({
      email: senior.user.email,
      discordId: '123456789012345678',
    });

    const csv = await fetch(`${server.api}/admin/users/export.csv`, {
      headers: { authorization: `Bearer ${support.token}` },
    });
    const text = await csv.text();
    expect(text).toContain(senior.user.username);
    expect(text).not.toContain(senior.user.email);
    expect(text).not.toContain('123456789012345678');
    expect(text).toContain(customer.user.email);
  });

  it('finds an outranking account by its username only, never by its e-mail or Discord id', async () => {
    const search = async (q: string, reader: TestUser) =>
      (
        await call<{ data: Row[] }>('GET', `/admin/users?q=${encodeURIComponent(q)}`, undefined, reader.token)
      ).body.data.map((row) => row.id);
    expect(await search(senior.user.email, support)).toEqual([]);
    expect(await search('123456789012345678', support)).toEqual([]);
    expect(await search(senior.user.username, support)).toEqual([senior.user.id]);
    expect(await search(customer.user.email, support)).toEqual([customer.user.id]);
    expect(await search(senior.user.email, admin)).toEqual([senior.user.id]);
    const csv = await fetch(
      `${server.api}/admin/users/export.csv?q=${encodeURIComponent(senior.user.email)}`,
      {
        headers: { authorization: `Bearer ${support.token}` },
      },
    );
    expect(await csv.text()).not.toContain(senior.user.username);
  });

  it('blanks the address and browser of an outranking account’s sessions in the users-online list', async () => {
    const watcher = await server.createUser({ permissions: ['can_manageUsersOnline'] });
    // Seen recently: the list holds sessions active in the last 30 minutes.
    for (const user of [senior, customer]) await call('GET', '/me/info', undefined, user.token);
    const list = await call<{
      data: { userId: string; username: string; ip: string | null; userAgent: string | null }[];
    }>('GET', '/admin/users-online/sessions?pageSize=500', undefined, watcher.token);
    expect(list.status).toBe(200);
    const seniorRow = list.body.data.find((row) => row.userId === senior.user.id);
    expect(seniorRow).toMatchObject({ username: senior.user.username, ip: null, userAgent: null });
    const customerRow = list.body.data.find((row) => row.userId === customer.user.id);
    expect(customerRow?.ip).not.toBeNull();
    // Nor found by their address.
    const byAddress = await call<{ data: { userId: string }[] }>(
      'GET',
      `/admin/users-online/sessions?pageSize=500&q=${encodeURIComponent(customerRow?.ip ?? '')}`,
      undefined,
      watcher.token,
    );
    const found = byAddress.body.data.map((row) => row.userId);
    expect(found).toContain(customer.user.id);
    expect(found).not.toContain(senior.user.id);
  });

  it('blanks the address, before and after of audit entries about or by an outranking account', async () => {
    const auditor = await server.createUser({ permissions: ['can_manageAudit'] });
    await call(
      'PUT',
      `/admin/users/${customer.user.id}/discord`,
      { discordId: '222222222222222222' },
      admin.token,
    );
    type Entry = {
      actorId: string | null;
      targetId: string | null;
      action: string;
      ip: string | null;
      after: unknown;
    };
    const list = await call<{ data: Entry[] }>('GET', '/admin/audit?pageSize=100', undefined, auditor.token);
    expect(list.status).toBe(200);
    const bySenior = list.body.data.filter(
      (entry) => entry.targetId === senior.user.id && entry.action === 'user.discord',
    );
    expect(bySenior).toHaveLength(1);
    expect(bySenior[0]).toMatchObject({ actorId: admin.user.id, ip: null, after: null });
    // An administrator changed a customer: the administrator's address is blanked, the change is not.
    const onCustomer = list.body.data.find(
      (entry) => entry.targetId === customer.user.id && entry.action === 'user.discord',
    );
    expect(onCustomer).toMatchObject({ ip: null, after: { discordId: '222222222222222222' } });
    const csv = await fetch(`${server.api}/admin/audit/export.csv`, {
      headers: { authorization: `Bearer ${auditor.token}` },
    });
    const text = await csv.text();
    expect(text).toContain(senior.user.username);
    expect(text).not.toContain('123456789012345678');
    expect(text).toContain('222222222222222222');
    // Found by address only when the reader outranks their actor: the customer's own, not the administrator's.
    await call('DELETE', '/me/sessions', undefined, customer.token);
    const byAddress = await call<{ data: Entry[] }>(
      'GET',
      `/admin/audit?pageSize=100&q=${encodeURIComponent('127.0.0.1')}`,
      undefined,
      auditor.token,
    );
    const actors = byAddress.body.data.map((entry) => entry.actorId);
    expect(actors).toContain(customer.user.id);
    expect(actors).not.toContain(admin.user.id);
    // An administrator reads them whole.
    const whole = await call<{ data: Entry[] }>('GET', '/admin/audit?pageSize=100', undefined, admin.token);
    expect(
      whole.body.data.find((entry) => entry.targetId === senior.user.id && entry.action === 'user.discord')
        ?.after,
    ).toEqual({ discordId: '123456789012345678' });
  });
});

describe('payments of an outranking buyer keep the accounts, not the provider’s leads (issue 43)', () => {
  it('blanks the provider reference and checkout link in the list, the CSV and the detail, and refuses the receipt', async () => {
    const cashier = await server.createUser({ permissions: ['can_manageSettings', 'can_managePackages'] });
    const packageId = (
      await call<{ data: { id: string } }>(
        'POST',
        '/admin/packages',
        {
          name: 'Récolte',
          priceCents: 900,
          durationDays: 30,
          grants: ['can_useGathering'],
          whitelistSlots: 1,
        },
        cashier.token,
      )
    ).body.data.id;
    const buy = async (buyer: TestUser) => {
      const started = await call<{ data: { id: string; checkoutUrl: string | null } }>(
        'POST',
        '/me/orders',
        { packageId },
        buyer.token,
      );
      expect(started.status).toBe(201);
      return started.body.data;
    };
    const adminOrder = await buy(admin);
    const customerOrder = await buy(customer);
    expect(adminOrder.checkoutUrl).not.toBeNull();
    type Payment = { id: string; user: { id: string; username: string }; checkoutUrl: string | null };
    const list = await call<{ data: Payment[] }>(
      'GET',
      '/admin/payments?pageSize=100',
      undefined,
      cashier.token,
    );
    expect(list.body.data.find((payment) => payment.id === adminOrder.id)).toMatchObject({
      user: { id: admin.user.id, username: admin.user.username },
      checkoutUrl: null,
      providerRef: null,
    });
    expect(list.body.data.find((payment) => payment.id === customerOrder.id)?.checkoutUrl).toBe(
      customerOrder.checkoutUrl,
    );
    const detail = await call<{ data: Payment }>(
      'GET',
      `/admin/payments/${adminOrder.id}`,
      undefined,
      cashier.token,
    );
    expect(detail.body.data).toMatchObject({ checkoutUrl: null, providerRef: null });
    // The administrator reads their own order whole.
    const own = await call<{ data: Payment }>(
      'GET',
      `/admin/payments/${adminOrder.id}`,
      undefined,
      admin.token,
    );
    expect(own.body.data.checkoutUrl).toBe(adminOrder.checkoutUrl);

    const csv = await fetch(`${server.api}/admin/payments/export.csv`, {
      headers: { authorization: `Bearer ${cashier.token}` },
    });
    const text = await csv.text();
    expect(text).not.toContain(`sandbox_${adminOrder.id}`);
    expect(text).toContain(`sandbox_${customerOrder.id}`);

    await call('POST', `/payments/sandbox/${adminOrder.id}/succeed`, undefined, admin.token);
    const receipt = await call('GET', `/admin/payments/${adminOrder.id}/receipt`, undefined, cashier.token);
    expect(receipt).toMatchObject({ status: 403, body: { code: 'ADMINISTRATOR_ONLY' } });
    expect(
      (await call('GET', `/admin/payments/${adminOrder.id}/receipt`, undefined, admin.token)).status,
    ).toBe(200);
  });
});
