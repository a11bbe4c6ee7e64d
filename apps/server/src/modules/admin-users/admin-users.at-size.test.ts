import { type AdminUser, permissionLabel } from '@bot/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { userGrants } from '../access/index.ts';
import { roles, userRoles } from '../roles/index.ts';
import { users } from '../users/index.ts';

// The user list's search, totals and export as they work at size (docs/decisions/405): trigram
// indexes, a total estimated above 1,000 search matches, the export's one query per 5,000 users.

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_manageUsers'] });
});
afterAll(() => server.close());

type Page = { data: AdminUser[]; total: number; totalIsEstimate?: boolean };
const list = (query: string) => call<Page>('GET', `/admin/users?${query}`, undefined, staff.token);

/** Users named `${prefix}0000`… in id order (ids are UUID v7, sorted here to be sure). */
async function insertUsers(prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId()).sort();
  const rows = ids.map((id, i) => ({
    id,
    username: `${prefix}${String(i).padStart(4, '0')}`,
    email: `${prefix}${i}@example.test`,
    passwordHash: 'x',
    activatedAt: new Date(),
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await server.ctx.db.insert(users).values(rows.slice(i, i + 1000));
  return ids;
}

async function insertRole(name: string, permissions: string[] = []): Promise<string> {
  const id = newId();
  await server.ctx.db.insert(roles).values({ id, name });
  for (const permission of permissions)
    await server.ctx.db.execute(
      sql`insert into role_permissions (role_id, permission) values (${id}, ${permission})`,
    );
  return id;
}

describe('search', () => {
  it('finds a user by part of the name, e-mail, Discord id or hwid, whatever the case', async () => {
    const [id] = await insertUsers('unused', 1);
    await server.ctx.db
      .update(users)
      .set({
        username: 'Zorro_Alpha',
        email: 'Contact.Beta@Example.test',
        discordId: '112233445566',
        hwid: 'HWID-ABC-777',
      })
      .where(eq(users.id, id!));
    for (const q of ['ro_al', 'ZORRO', 'contact.BETA', 'xample.TE', '2334', 'abc-7', 'zo']) {
      const page = await list(`q=${encodeURIComponent(q)}`);
      expect(page.status, q).toBe(200);
      expect(
        page.body.data.map((user) => user.id),
        q,
      ).toContain(id);
    }
    // The user's wildcards are literal characters.
    for (const q of ['%', 'ro%al', 'zorro_a_pha'])
      expect((await list(`q=${encodeURIComponent(q)}`)).body.total, q).toBe(0);
  });

  it('filters by permission: direct grants still running, roles, administrators', async () => {
    const [viaGrant, expired, viaRole, admin, none] = await insertUsers('perm_', 5);
    const { db } = server.ctx;
    await db.insert(userGrants).values([
      { id: newId(), userId: viaGrant!, permission: 'can_useTreasure', expiresAt: null },
      {
        id: newId(),
        userId: expired!,
        permission: 'can_useTreasure',
        expiresAt: new Date(Date.now() - 60_000),
      },
      { id: newId(), userId: none!, permission: 'can_useGathering', expiresAt: null },
    ]);
    await db
      .insert(userRoles)
      .values({ userId: viaRole!, roleId: await insertRole('Chasseurs', ['can_useTreasure']) });
    await db.update(users).set({ isAdministrator: true }).where(eq(users.id, admin!));
    const page = await list('q=perm_&permission=can_useTreasure&sort=username');
    expect(page.body.data.map((user) => user.id)).toEqual([viaGrant, viaRole, admin]);
    expect(page.body.total).toBe(3);
  });
});

describe('totals', () => {
  beforeAll(async () => {
    await insertUsers('wide_', 1500);
    await server.ctx.db.execute(sql`analyze users`);
  });

  it('are exact up to 1,000 search matches', async () => {
    const page = await list('q=WIDE_01&pageSize=25');
    expect(page.body.data).toHaveLength(25);
    expect(page.body.total).toBe(100); // wide_0100 … wide_0199
    expect(page.body).not.toHaveProperty('totalIsEstimate');
  });

  it('above, are the planner estimate, flagged; a last page tells the exact total', async () => {
    const first = await list('q=wide_&pageSize=25');
    expect(first.body.data).toHaveLength(25);
    expect(first.body.totalIsEstimate).toBe(true);
    expect(first.body.total).toBeGreaterThan(1000);
    expect(first.body.total).toBeLessThan(4500);

    const last = await list('q=wide_&pageSize=200&page=8');
    expect(last.body.data).toHaveLength(100);
    expect(last.body.total).toBe(1500);
    expect(last.body).not.toHaveProperty('totalIsEstimate');
  });

  it('without a search, are counted exactly however many users there are', async () => {
    const [counted] = await server.ctx.db.select({ n: sql<number>`count(*)::int` }).from(users);
    const page = await list('pageSize=1');
    expect(page.body.total).toBe(counted!.n);
    expect(page.body.total).toBeGreaterThan(1000);
    expect(page.body).not.toHaveProperty('totalIsEstimate');
  });
});

describe('CSV export', () => {
  it('writes every matching user across pages of 5,000, with the roles, subscriptions and dates the list shows', async () => {
    const ids = await insertUsers('edge_', 5050);
    const { db } = server.ctx;
    const alpha = await insertRole('Alpha');
    const zeta = await insertRole('Zeta');
    // The last user of the first page and the first of the second, each side of the page boundary.
    const [endOfPage, startOfPage] = [ids[4999]!, ids[5000]!];
    await db.insert(userRoles).values([
      { userId: endOfPage, roleId: zeta },
      { userId: endOfPage, roleId: alpha },
      { userId: startOfPage, roleId: alpha },
    ]);
    const until = new Date('2030-01-02T03:04:05.678Z');
    await db.insert(userGrants).values([
      { id: newId(), userId: startOfPage, permission: 'can_useGathering', expiresAt: until, source: 'order' },
      { id: newId(), userId: startOfPage, permission: 'can_useGathering', expiresAt: new Date('2029-01-01') },
      { id: newId(), userId: startOfPage, permission: 'can_useTreasure', expiresAt: null },
      {
        id: newId(),
        userId: endOfPage,
        permission: 'can_useTreasure',
        expiresAt: new Date(Date.now() - 1000),
      },
    ]);
    const banned = ids[7]!;
    await db
      .update(users)
      .set({ bannedAt: new Date('2026-02-03T04:05:06.789Z'), banReason: 'Triche, "bot" =modifié' })
      .where(eq(users.id, banned));

    // Dates in the zone the viewer names (here UTC): 'YYYY-MM-DD HH:mm:ss', no milliseconds.
    const local = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, '');
    const response = await fetch(`${server.api}/admin/users/export.csv?q=edge_&tz=UTC`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe(
      "id;nom d'utilisateur;e-mail;activé;banni le;raison du bannissement;rôles;abonnements;hwid;discord;bot en ligne;créé le",
    );
    expect(lines).toHaveLength(5051);
    expect(lines.slice(1).map((line) => line.split(';')[0])).toEqual(ids);

    const byId = new Map(lines.slice(1).map((line) => [line.split(';')[0]!, line]));
    const listed = async (id: string) =>
      (await list(`q=${(await db.select().from(users).where(eq(users.id, id)))[0]!.username}`)).body.data[0]!;
    const boundary = await listed(startOfPage);
    expect(boundary.roles.map((role) => role.name)).toEqual(['Alpha']);
    expect(boundary.subscriptions).toEqual([
      { permission: 'can_useGathering', expiresAt: until.toISOString() },
      { permission: 'can_useTreasure', expiresAt: null },
    ]);
    expect(byId.get(startOfPage)).toBe(
      `${startOfPage};edge_5000;edge_5000@example.test;oui;;;Alpha;${permissionLabel('can_useGathering')} (jusqu’au ${local(until.toISOString())}), ${permissionLabel('can_useTreasure')} (sans fin);;;non;${local(boundary.createdAt)}`,
    );
    const before = await listed(endOfPage);
    expect(before.roles.map((role) => role.name)).toEqual(['Alpha', 'Zeta']);
    expect(before.subscriptions).toEqual([]);
    expect(byId.get(endOfPage)).toBe(
      `${endOfPage};edge_4999;edge_4999@example.test;oui;;;Alpha Zeta;;;;non;${local(before.createdAt)}`,
    );
    expect(byId.get(banned)).toBe(
      `${banned};edge_0007;edge_7@example.test;oui;2026-02-03 04:05:06;"Triche, ""bot"" =modifié";;;;;non;${local((await listed(banned)).createdAt)}`,
    );

    const filtered = await fetch(`${server.api}/admin/users/export.csv?q=edge_&permission=can_useTreasure`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    const filteredLines = (await filtered.text()).trimEnd().split('\n');
    expect(filteredLines.slice(1).map((line) => line.split(';')[0])).toEqual([startOfPage]);
  });
});
