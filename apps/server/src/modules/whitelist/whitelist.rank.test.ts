import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';

/**
 * Issue 43, item 8: the staff whitelist had no rank. A `can_manageWhitelist`-only staff member read
 * the game accounts of an administrator and of a senior staff member, found them by name, and removed
 * the administrator's. The list now shows an outranking account's entries by identity only, a
 * search by game account does not find them, and adding or removing one is refused
 * (docs/decisions/404-no-privilege-escalation.md).
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
let keeper: TestUser;
let admin: TestUser;
let senior: TestUser;
let customer: TestUser;
const names = { admin: 'Rang-Admin', senior: 'Rang-Senior', customer: 'Rang-Client', keeper: 'Rang-Soi' };

interface Row {
  id: string;
  name: string;
  createdAt: string;
  user: { id: string; username: string };
}

async function add(user: TestUser, name: string) {
  const added = await call<{ data: Row }>(
    'POST',
    '/admin/whitelist',
    { username: user.user.username, name },
    admin.token,
  );
  expect(added.status).toBe(201);
  return added.body.data;
}

const list = async (reader: TestUser, query = '') => {
  const answer = await call<{ data: Row[]; total: number }>(
    'GET',
    `/admin/whitelist?pageSize=100${query}`,
    undefined,
    reader.token,
  );
  expect(answer.status).toBe(200);
  return answer.body;
};

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  keeper = await server.createUser({ permissions: ['can_manageWhitelist'] });
  admin = await server.createUser({ isAdministrator: true });
  senior = await server.createUser({ permissions: ['can_manageWhitelist', 'can_manageSettings'] });
  customer = await server.createUser({ permissions: ['can_useGathering'] });
  await add(admin, names.admin);
  await add(senior, names.senior);
  await add(customer, names.customer);
  await add(keeper, names.keeper);
});
afterAll(() => server.close());

describe('the staff whitelist follows the staff rank (issue 43)', () => {
  it('lists an outranking account’s entries by identity only: no game account name', async () => {
    const { data } = await list(keeper);
    const byUser = new Map(data.map((row) => [row.user.id, row]));
    for (const outranking of [admin, senior])
      expect(byUser.get(outranking.user.id)).toMatchObject({
        name: '',
        user: { id: outranking.user.id, username: outranking.user.username },
      });
    expect(byUser.get(customer.user.id)?.name).toBe(names.customer);
    expect(byUser.get(keeper.user.id)?.name).toBe(names.keeper);
    expect(JSON.stringify(data)).not.toContain(names.admin);
    expect(JSON.stringify(data)).not.toContain(names.senior);
    // An administrator reads every name.
    const full = JSON.stringify((await list(admin)).data);
    for (const name of Object.values(names)) expect(full).toContain(name);
  });

  it('finds an outranking account’s entries by its username only, never by the game account', async () => {
    expect((await list(keeper, `&q=${names.admin}`)).data).toEqual([]);
    expect((await list(keeper, `&q=${names.senior}`)).total).toBe(0);
    expect((await list(keeper, `&q=${names.customer}`)).data.map((row) => row.name)).toEqual([
      names.customer,
    ]);
    const byUsername = await list(keeper, `&q=${admin.user.username}`);
    expect(byUsername.data.map((row) => [row.user.id, row.name])).toEqual([[admin.user.id, '']]);
    const byId = await list(keeper, `&userId=${senior.user.id}&sort=name`);
    expect(byId.data.map((row) => row.name)).toEqual(['']);
    expect((await list(admin, `&q=${names.admin}`)).data.map((row) => row.name)).toEqual([names.admin]);
  });

  it('refuses to remove or add a game account of an outranking account; a customer’s still works', async () => {
    const rows = (await list(admin)).data;
    const entryOf = (user: TestUser) => rows.find((row) => row.user.id === user.user.id) as Row;
    for (const outranking of [admin, senior]) {
      const refused = {
        status: 403,
        body: { code: outranking === admin ? 'ADMINISTRATOR_ONLY' : 'OUTRANKED' },
      };
      const removed = await call(
        'DELETE',
        `/admin/whitelist/${entryOf(outranking).id}`,
        undefined,
        keeper.token,
      );
      expect(removed).toMatchObject(refused);
      const added = await call(
        'POST',
        '/admin/whitelist',
        { username: outranking.user.username, name: `Rang-Ajout-${outranking.user.id.slice(-6)}` },
        keeper.token,
      );
      expect(added).toMatchObject(refused);
    }
    expect((await call('GET', '/me/whitelist', undefined, admin.token)).body).toMatchObject({
      data: [{ name: names.admin }],
    });
    expect(
      (await call('DELETE', `/admin/whitelist/${entryOf(customer).id}`, undefined, keeper.token)).status,
    ).toBe(204);
  });
});
