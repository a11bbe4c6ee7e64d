import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { auditLog } from '../audit/index.ts';
import { listWhitelistedAccountNames } from './whitelist.service.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let staff: TestUser;
let outsider: TestUser;
let twoSlots: string;
let oneSlot: string;

type Entry = { id: string; name: string };
type Mine = { data: Entry[]; slots: { used: number; total: number | null } };

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  staff = await server.createUser({ permissions: ['can_manageWhitelist', 'can_managePackages'] });
  outsider = await server.createUser({ permissions: ['can_manageVoucher'] });
  const make = async (whitelistSlots: number) =>
    (
      await call<{ data: { id: string } }>(
        'POST',
        '/admin/packages',
        {
          name: `Offre ${whitelistSlots}`,
          priceCents: 500,
          durationDays: 30,
          grants: ['can_useGathering'],
          whitelistSlots,
        },
        staff.token,
      )
    ).body.data.id;
  twoSlots = await make(2);
  oneSlot = await make(1);
});
afterAll(() => server.close());

async function buy(customer: TestUser, packageId: string) {
  const order = await call<{ data: { id: string } }>('POST', '/me/orders', { packageId }, customer.token);
  const paid = await call(
    `POST`,
    `/payments/sandbox/${order.body.data.id}/succeed`,
    undefined,
    customer.token,
  );
  expect(paid.status).toBe(200);
}

const add = (customer: TestUser, name: string) =>
  call<{ data: Entry; code?: string }>('POST', '/me/whitelist', { name }, customer.token);
const mine = async (customer: TestUser) =>
  (await call<Mine>('GET', '/me/whitelist', undefined, customer.token)).body;

describe('guards', () => {
  it.each([
    ['GET', '/me/whitelist'],
    ['POST', '/me/whitelist', { name: 'Compte' }],
    ['DELETE', `/me/whitelist/${newId()}`],
  ] as [string, string, unknown?][])('%s %s: 401 without a session', async (method, path, payload) => {
    expect((await call(method, path, payload)).status).toBe(401);
  });

  it.each([
    ['GET', '/admin/whitelist'],
    ['POST', '/admin/whitelist', { username: 'personne', name: 'Compte' }],
    ['DELETE', `/admin/whitelist/${newId()}`],
  ] as [string, string, unknown?][])(
    '%s %s: 401, 403 without can_manageWhitelist',
    async (method, path, payload) => {
      expect((await call(method, path, payload)).status).toBe(401);
      expect((await call(method, path, payload, outsider.token)).status).toBe(403);
      expect([200, 201, 404]).toContain((await call(method, path, payload, staff.token)).status);
    },
  );
});

describe('customer whitelist', () => {
  it('has no slot without a package', async () => {
    const customer = await server.createUser();
    expect(await mine(customer)).toEqual({ data: [], slots: { used: 0, total: 0 } });
    expect((await add(customer, 'Sans-Offre')).body.code).toBe('WHITELIST_FULL');
  });

  it('accepts accounts up to the slots of the running packages, summed', async () => {
    const customer = await server.createUser();
    await buy(customer, twoSlots);
    expect((await add(customer, 'Iop-Feu')).status).toBe(201);
    expect((await add(customer, 'Cra-Eau')).status).toBe(201);
    const full = await add(customer, 'Eni-Air');
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('WHITELIST_FULL');
    await buy(customer, oneSlot);
    expect((await add(customer, 'Eni-Air')).status).toBe(201);
    const list = await mine(customer);
    expect(list.slots).toEqual({ used: 3, total: 3 });
    expect(list.data.map((entry) => entry.name)).toEqual(['Iop-Feu', 'Cra-Eau', 'Eni-Air']);
    expect(await listWhitelistedAccountNames(server.ctx, customer.user.id)).toEqual([
      'Iop-Feu',
      'Cra-Eau',
      'Eni-Air',
    ]);
  });

  it('buying the same package again does not add slots before its period starts', async () => {
    const customer = await server.createUser();
    await buy(customer, oneSlot);
    await buy(customer, oneSlot);
    expect((await mine(customer)).slots.total).toBe(1);
  });

  it('a game account belongs to one customer at a time (case-insensitive)', async () => {
    const first = await server.createUser();
    const second = await server.createUser();
    await buy(first, twoSlots);
    await buy(second, twoSlots);
    expect((await add(first, 'Sacri-Unique')).status).toBe(201);
    const taken = await add(second, 'sacri-UNIQUE');
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('WHITELIST_NAME_TAKEN');
    expect((await add(first, 'SACRI-unique')).body.code).toBe('WHITELIST_NAME_TAKEN');
  });

  it('removes own entries only; a removed account can be taken again', async () => {
    const owner = await server.createUser();
    const stranger = await server.createUser();
    await buy(owner, twoSlots);
    const entry = (await add(owner, 'Osa-Libre')).body.data;
    expect(await call('DELETE', `/me/whitelist/${entry.id}`, undefined, stranger.token)).toMatchObject({
      status: 404,
      body: { code: 'WHITELIST_ENTRY_NOT_FOUND' },
    });
    expect((await call('DELETE', `/me/whitelist/${entry.id}`, undefined, owner.token)).status).toBe(204);
    expect((await call('DELETE', `/me/whitelist/${entry.id}`, undefined, owner.token)).status).toBe(404);
    await buy(stranger, oneSlot);
    expect((await add(stranger, 'osa-libre')).status).toBe(201);
  });

  it('audits the customer’s own additions and removals, with the customer as actor', async () => {
    const owner = await server.createUser();
    await buy(owner, twoSlots);
    const entry = (await add(owner, 'Osa-Trace')).body.data;
    expect((await call('DELETE', `/me/whitelist/${entry.id}`, undefined, owner.token)).status).toBe(204);
    const trail = await server.ctx.db
      .select({ action: auditLog.action, actorId: auditLog.actorId, label: auditLog.targetLabel })
      .from(auditLog)
      .where(eq(auditLog.targetId, entry.id))
      .orderBy(auditLog.at);
    expect(trail).toEqual([
      { action: 'whitelist.add', actorId: owner.user.id, label: `Osa-Trace (${owner.user.username})` },
      { action: 'whitelist.remove', actorId: owner.user.id, label: `Osa-Trace (${owner.user.username})` },
    ]);
  });

  it('concurrent adds never exceed the slots, and one name goes to one customer', async () => {
    const customer = await server.createUser();
    await buy(customer, oneSlot);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => add(customer, `Course-${i}`)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.code === 'WHITELIST_FULL')).toHaveLength(9);

    const rivals = [await server.createUser(), await server.createUser(), await server.createUser()];
    for (const rival of rivals) await buy(rival, oneSlot);
    const race = await Promise.all(rivals.map((rival, i) => add(rival, i % 2 ? 'DISPUTE' : 'dispute')));
    expect(race.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(race.filter((answer) => answer.body.code === 'WHITELIST_NAME_TAKEN')).toHaveLength(2);
  });

  it('validates names', async () => {
    const customer = await server.createUser();
    for (const name of ['', 'a', 'x'.repeat(41), '<script>', ' -début']) {
      expect((await add(customer, name)).status).toBe(400);
    }
    expect((await call('POST', '/me/whitelist', { name: 'Ok-Nom', extra: 1 }, customer.token)).status).toBe(
      400,
    );
  });

  it('administrators have no slot limit', async () => {
    const admin = await server.createUser({ isAdministrator: true });
    for (let i = 0; i < 4; i += 1) expect((await add(admin, `Admin-Compte-${i}`)).status).toBe(201);
    expect((await mine(admin)).slots).toEqual({ used: 4, total: null });
  });

  it('emits whitelist.changed for the real-time hub', async () => {
    const customer = await server.createUser({ isAdministrator: true });
    const seen: string[] = [];
    const off = server.ctx.events.on('whitelist.changed', ({ userId }) => seen.push(userId));
    const entry = (await add(customer, 'Evenement')).body.data;
    await call('DELETE', `/me/whitelist/${entry.id}`, undefined, customer.token);
    off();
    expect(seen).toEqual([customer.user.id, customer.user.id]);
  });
});

describe('staff whitelist', () => {
  const auditOf = (action: string, targetId: string) =>
    server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

  it('adds for a customer beyond their slots (audited), searches, removes (audited)', async () => {
    const customer = await server.createUser();
    const added = await call<{ data: Entry & { user: { username: string }; createdBy: { id: string } } }>(
      'POST',
      '/admin/whitelist',
      { username: customer.user.username, name: 'Staff-Ajout' },
      staff.token,
    );
    expect(added.status).toBe(201);
    expect(added.body.data.user.username).toBe(customer.user.username);
    expect(added.body.data.createdBy.id).toBe(staff.user.id);
    expect(await auditOf('whitelist.add', added.body.data.id)).toHaveLength(1);
    expect((await mine(customer)).data.map((entry) => entry.name)).toEqual(['Staff-Ajout']);

    const byName = await call<{ data: Entry[]; total: number }>(
      'GET',
      '/admin/whitelist?q=staff-ajo',
      undefined,
      staff.token,
    );
    expect(byName.body.data.map((entry) => entry.id)).toEqual([added.body.data.id]);
    const byUser = await call<{ data: Entry[]; total: number }>(
      'GET',
      `/admin/whitelist?q=${customer.user.username}`,
      undefined,
      staff.token,
    );
    expect(byUser.body.total).toBe(1);
    const byId = await call<{ total: number }>(
      'GET',
      `/admin/whitelist?userId=${customer.user.id}&sort=-name`,
      undefined,
      staff.token,
    );
    expect(byId.body.total).toBe(1);

    const duplicate = await call(
      'POST',
      '/admin/whitelist',
      { username: staff.user.username, name: 'STAFF-AJOUT' },
      staff.token,
    );
    expect(duplicate.status).toBe(409);
    const nobody = await call(
      'POST',
      '/admin/whitelist',
      { username: 'inconnu-total', name: 'Compte-X' },
      staff.token,
    );
    expect(nobody).toMatchObject({ status: 404, body: { code: 'USER_NOT_FOUND' } });

    expect(
      (await call('DELETE', `/admin/whitelist/${added.body.data.id}`, undefined, staff.token)).status,
    ).toBe(204);
    const [removal] = await auditOf('whitelist.remove', added.body.data.id);
    expect(removal).toMatchObject({ actorId: staff.user.id });
    expect((await mine(customer)).data).toEqual([]);
  });
});
