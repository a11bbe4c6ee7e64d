import type { BotCommand } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  collect,
  connectAndAuthenticate,
  createBotOwner,
  type TestSocket,
} from '../../../test/helpers/realtime.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { botCommand: { max: 3, windowMs: 60_000 } } });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

type Data<T> = { data: T };

it('tells every staff map live of every command, whoever sent it, naming its issuer', async () => {
  const owner = await createBotOwner(server);
  const sender = await server.createUser({ permissions: ['can_manageUsers'] });
  const reader = await server.createUser({ permissions: ['can_manageMap'] });
  const { socket } = await connectAndAuthenticate(server, { type: 'admin', token: reader.token });
  sockets.push(socket);
  const seen = collect<BotCommand>(socket, 'bot_command_update');

  const byOwner = await call<Data<BotCommand>>('POST', '/me/bot/commands', { kind: 'pause' }, owner.token);
  const byStaff = await call<Data<BotCommand>>(
    'POST',
    `/admin/bots/${owner.hwid}/commands`,
    { kind: 'resume' },
    sender.token,
  );
  await call(
    'POST',
    `/admin/bots/${owner.hwid}/commands/${byStaff.body.data.id}/cancel`,
    undefined,
    sender.token,
  );
  await vi.waitFor(() =>
    expect(seen.map((command) => [command.id, command.state, command.issuer.username])).toEqual([
      [byOwner.body.data.id, 'queued', owner.user.username],
      [byStaff.body.data.id, 'queued', sender.user.username],
      [byStaff.body.data.id, 'cancelled', sender.user.username],
    ]),
  );
});

it('refuses commands past the per-minute limit with a message about commands', async () => {
  const owner = await createBotOwner(server);
  for (let i = 0; i < 3; i += 1)
    expect((await call('POST', '/me/bot/commands', { kind: 'resume' }, owner.token)).status).toBe(201);
  const refused = await call<{ code: string; error: string }>(
    'POST',
    '/me/bot/commands',
    { kind: 'pause' },
    owner.token,
  );
  expect(refused).toMatchObject({ status: 429, body: { code: 'BOT_COMMAND_RATE_LIMITED' } });
  expect(refused.body.error).toBe(
    'Trop de commandes envoyées en une minute : patientez un instant avant d’en envoyer une autre.',
  );
});

it('lists the published routes to staff who send commands, without the route editor’s permission', async () => {
  const editor = await server.createUser({ permissions: ['can_manageRoute'] });
  const make = (name: string, status: 'draft' | 'published') =>
    call<Data<{ id: string }>>(
      'POST',
      '/admin/routes',
      { name, kind: 'gathering', status, steps: [] },
      editor.token,
    );
  const published = await make('Zèbre publié', 'published');
  await make('Brouillon caché', 'draft');
  const staff = await server.createUser({ permissions: ['can_manageUsersOnline'] });
  const answer = await call<Data<{ id: string; name: string }[]>>(
    'GET',
    '/admin/bots/route-choices',
    undefined,
    staff.token,
  );
  expect(answer.status).toBe(200);
  expect(answer.body.data).toContainEqual({
    id: published.body.data.id,
    name: 'Zèbre publié',
    kind: 'gathering',
  });
  expect(answer.body.data.some((route) => route.name === 'Brouillon caché')).toBe(false);
  const customer = await createBotOwner(server);
  expect((await call('GET', '/admin/bots/route-choices', undefined, customer.token)).status).toBe(403);
});

it('tells a customer the names of the published routes their bot may follow, and no others', async () => {
  const editor = await server.createUser({ permissions: ['can_manageRoute'] });
  const make = (name: string, kind: 'gathering' | 'treasure', status: 'draft' | 'published') =>
    call<Data<{ id: string }>>('POST', '/admin/routes', { name, kind, status, steps: [] }, editor.token);
  const gathering = await make('Forêt d’Ébène', 'gathering', 'published');
  await make('Trésor interdit', 'treasure', 'published');
  await make('Récolte en brouillon', 'gathering', 'draft');
  const gatherer = await server.createUser({ permissions: ['can_useGathering'] });
  const answer = await call<Data<{ id: string; name: string; kind: string }[]>>(
    'GET',
    '/me/bot/routes',
    undefined,
    gatherer.token,
  );
  expect(answer.status).toBe(200);
  expect(answer.body.data).toContainEqual({
    id: gathering.body.data.id,
    name: 'Forêt d’Ébène',
    kind: 'gathering',
  });
  expect(answer.body.data.every((route) => route.kind === 'gathering')).toBe(true);
  expect(answer.body.data.some((route) => route.name === 'Récolte en brouillon')).toBe(false);
  const withoutPackage = await server.createUser();
  expect(
    (await call<Data<unknown[]>>('GET', '/me/bot/routes', undefined, withoutPackage.token)).body.data,
  ).toEqual([]);
  expect((await call('GET', '/me/bot/routes')).status).toBe(401);
});
