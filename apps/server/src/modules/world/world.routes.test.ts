import { mapIdOf } from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer, type TestUser } from '../../../test/harness.ts';
import { newId } from '../../core/ids.ts';
import { auditLog } from '../audit/index.ts';
import { seedAreaOf } from './world.service.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
let router: TestUser;
let mapper: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
  router = await server.createUser({ permissions: ['can_manageRoute'] });
  mapper = await server.createUser({ permissions: ['can_manageMap'] });
  outsider = await server.createUser({ permissions: ['can_manageUsers'] });
});
afterAll(() => server.close());

type World = {
  data: {
    bounds: { minX: number; maxX: number };
    areas: { id: number; name: string }[];
    maps: { id: number; x: number; y: number; areaId: number }[];
  };
};

describe('world grid', () => {
  it('is seeded at first start, the same on every start, and shared by map and route managers', async () => {
    expect((await call('GET', '/admin/world')).status).toBe(401);
    expect((await call('GET', '/admin/world', undefined, outsider.token)).status).toBe(403);
    expect((await call('GET', '/admin/world', undefined, mapper.token)).status).toBe(200);
    const world = await call<World>('GET', '/admin/world', undefined, router.token);
    expect(world.status).toBe(200);
    expect(world.body.data.bounds).toMatchObject({ minX: -40, maxX: 40 });
    expect(world.body.data.maps).toHaveLength(81 * 81);
    expect(world.body.data.areas).toHaveLength(9);
    const center = world.body.data.maps.find((map) => map.x === 0 && map.y === 0);
    expect(center).toEqual({ id: mapIdOf(0, 0), x: 0, y: 0, areaId: seedAreaOf(0, 0) });
    expect(world.body.data.areas.find((area) => area.id === center?.areaId)?.name).toBe('Cité Centrale');
    const mismatched = world.body.data.maps.filter(
      (map) => map.id !== mapIdOf(map.x, map.y) || map.areaId !== seedAreaOf(map.x, map.y),
    );
    expect(mismatched).toEqual([]);
    expect(new Set(world.body.data.maps.map((map) => map.areaId)).size).toBe(9);
  });
});

describe('routes admin', () => {
  const someId = newId();
  it.each([
    ['GET', '/admin/routes'],
    ['GET', '/admin/routes/export.csv'],
    ['GET', `/admin/routes/${someId}`],
    ['POST', '/admin/routes', { name: 'Test', kind: 'gathering', steps: [] }],
    ['PUT', `/admin/routes/${someId}`, { status: 'published' }],
    ['DELETE', `/admin/routes/${someId}`],
  ] as [string, string, unknown?][])(
    '%s %s: 401, 403 without can_manageRoute',
    async (method, path, body) => {
      expect((await call(method, path, body)).status).toBe(401);
      expect((await call(method, path, body, mapper.token)).status).toBe(403);
      expect([200, 201, 404]).toContain((await call(method, path, body, router.token)).status);
    },
  );

  it('creates a draft from grid picks, publishes it, lists, exports and deletes it, audited', async () => {
    const created = await call<{ data: { id: string; status: string; steps: unknown[] } }>(
      'POST',
      '/admin/routes',
      {
        name: 'Blé des plaines',
        kind: 'gathering',
        steps: [
          { x: 1, y: 2, action: 'move' },
          { mapId: mapIdOf(2, 2), action: 'gather' },
          { x: 0, y: 0, action: 'bank' },
        ],
      },
      router.token,
    );
    expect(created.status).toBe(201);
    expect(created.body.data.status).toBe('draft');
    expect(created.body.data.steps).toEqual([
      { mapId: mapIdOf(1, 2), x: 1, y: 2, action: 'move' },
      { mapId: mapIdOf(2, 2), x: 2, y: 2, action: 'gather' },
      { mapId: mapIdOf(0, 0), x: 0, y: 0, action: 'bank' },
    ]);
    const id = created.body.data.id;
    const offGrid = await call(
      'POST',
      '/admin/routes',
      { name: 'Hors carte', kind: 'treasure', steps: [{ x: 99, y: 0, action: 'dig' }] },
      router.token,
    );
    expect(offGrid.status).toBe(400);
    expect(offGrid.body).toMatchObject({ code: 'UNKNOWN_MAP' });
    expect(
      (await call('POST', '/admin/routes', { name: 'X', kind: 'fishing', steps: [] }, router.token)).status,
    ).toBe(400);

    const published = await call<{ data: { status: string } }>(
      'PUT',
      `/admin/routes/${id}`,
      { status: 'published' },
      router.token,
    );
    expect(published.body.data.status).toBe('published');
    const [update] = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'route.update'), eq(auditLog.targetId, id)));
    expect(update).toMatchObject({
      before: { status: 'draft' },
      after: { status: 'published', stepCount: 3 },
    });

    const list = await call<{ data: { id: string }[]; total: number }>(
      'GET',
      '/admin/routes?kind=gathering&status=published&q=blé',
      undefined,
      router.token,
    );
    expect(list.body.data.map((route) => route.id)).toEqual([id]);
    const csv = await fetch(
      `${server.api}/admin/routes/export.csv?kind=gathering&q=${encodeURIComponent('blé')}`,
      {
        headers: { authorization: `Bearer ${router.token}` },
      },
    );
    expect((await csv.text()).trim().split(/\r?\n/)).toHaveLength(2);

    expect((await call('DELETE', `/admin/routes/${id}`, undefined, router.token)).status).toBe(204);
    expect(await call('GET', `/admin/routes/${id}`, undefined, router.token)).toMatchObject({
      status: 404,
      body: { code: 'ITINERARY_NOT_FOUND' },
    });
    const actions = await server.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(actions.map((entry) => entry.action).sort()).toEqual([
      'route.create',
      'route.delete',
      'route.update',
    ]);
  });
});

describe('bot routes', () => {
  async function openBotSession(permissions: ('can_useGathering' | 'can_useTreasure')[], hwid: string) {
    const owner = await server.createUser({ permissions });
    const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
    const session = await call<{ token: string }>('POST', '/bot/sessions', {
      accessKey: key.body.data.accessKey,
      hwid,
      version: '1.0.0',
    });
    expect(session.status).toBe(201);
    return session.body.token;
  }

  it('gives a bot the published routes its owner is entitled to', async () => {
    const make = async (name: string, kind: string, status: string) =>
      call(
        'POST',
        '/admin/routes',
        { name, kind, status, steps: [{ x: 3, y: 3, action: 'move' }] },
        router.token,
      );
    await make('Récolte publiée', 'gathering', 'published');
    await make('Récolte brouillon', 'gathering', 'draft');
    await make('Trésor publié', 'treasure', 'published');

    const gatherer = await openBotSession(['can_useGathering'], 'HWID-GATHER-0001');
    const routes = await call<{ data: { name: string; steps: unknown[] }[] }>(
      'GET',
      '/bot/routes?hwid=HWID-GATHER-0001',
      undefined,
      gatherer,
    );
    expect(routes.status).toBe(200);
    expect(routes.body.data.map((route) => route.name)).toEqual(['Récolte publiée']);
    expect(routes.body.data[0]?.steps).toEqual([{ mapId: mapIdOf(3, 3), x: 3, y: 3, action: 'move' }]);

    const both = await openBotSession(['can_useGathering', 'can_useTreasure'], 'HWID-BOTH-000001');
    const all = await call<{ data: { name: string }[] }>(
      'GET',
      '/bot/routes?hwid=HWID-BOTH-000001',
      undefined,
      both,
    );
    expect(all.body.data.map((route) => route.name).sort()).toEqual(['Récolte publiée', 'Trésor publié']);

    // a web session token, another PC, or nothing: refused
    expect((await call('GET', '/bot/routes?hwid=HWID-GATHER-0001', undefined, router.token)).status).toBe(
      401,
    );
    expect((await call('GET', '/bot/routes?hwid=HWID-OTHER-00001', undefined, gatherer)).status).toBe(401);
    expect((await call('GET', '/bot/routes?hwid=HWID-GATHER-0001')).body).toMatchObject({
      code: 'BOT_SESSION_INVALID',
    });
  });
});
