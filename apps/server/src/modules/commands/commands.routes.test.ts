import type { BotCommand, BotTimeline } from '@bot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  type TestSocket,
  waitFor,
} from '../../../test/helpers/realtime.ts';
import { publishedRoute } from '../../../test/helpers/routes.ts';
import { auditLog } from '../audit/index.ts';
import { acknowledgeCommand, markCommandSent } from './command-delivery.ts';
import { issueBotCommand } from './commands.service.ts';

let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];
const TTL_MS = 60_000;

beforeAll(async () => {
  server = await startTestServer({ commands: { sweepMs: 100, ttlMs: TTL_MS, maxPendingPerBot: 3 } });
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

type Data<T> = { data: T };

it('lets an owner act only on their own bound bot, and staff with any of the three permissions', async () => {
  const owner = await createBotOwner(server);
  const unbound = await server.createUser({ permissions: ['can_useGathering'] });
  expect(await call('POST', '/me/bot/commands', { kind: 'pause' }, unbound.token)).toMatchObject({
    status: 409,
    body: { code: 'HWID_NOT_BOUND' },
  });
  expect((await call('POST', '/me/bot/commands', { kind: 'pause' })).status).toBe(401);
  expect(
    (await call('POST', '/me/bot/commands', { kind: 'stopAccount', payload: {} }, owner.token)).status,
  ).toBe(400);
  expect(
    (
      await call(
        'POST',
        '/me/bot/commands',
        { kind: 'configure', payload: { routeId: 'r', extra: 1 } },
        owner.token,
      )
    ).status,
  ).toBe(400);

  // A customer cannot reach someone else's bot through the staff routes, nor cancel their commands.
  const other = await createBotOwner(server);
  expect(
    (await call('POST', `/admin/bots/${owner.hwid}/commands`, { kind: 'pause' }, other.token)).status,
  ).toBe(403);
  expect((await call('GET', `/admin/bots/${owner.hwid}/commands`, undefined, other.token)).status).toBe(403);
  const mine = await call<Data<BotCommand>>('POST', '/me/bot/commands', { kind: 'pause' }, owner.token);
  expect(mine.status).toBe(201);
  expect(
    await call('POST', `/me/bot/commands/${mine.body.data.id}/cancel`, undefined, other.token),
  ).toMatchObject({
    status: 404,
    body: { code: 'BOT_COMMAND_NOT_FOUND' },
  });

  for (const permission of ['can_manageMap', 'can_manageUsersOnline', 'can_manageUsers'] as const) {
    const staff = await server.createUser({ permissions: [permission] });
    const sent = await call<Data<BotCommand>>(
      'POST',
      `/admin/bots/${owner.hwid}/commands`,
      { kind: 'resume' },
      staff.token,
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data.issuer).toEqual({ type: 'staff', username: staff.user.username });
    await call(
      'POST',
      `/admin/bots/${owner.hwid}/commands/${sent.body.data.id}/cancel`,
      undefined,
      staff.token,
    );
  }
  const nobody = await server.createUser({ permissions: ['can_manageMap'] });
  expect(
    await call('POST', '/admin/bots/HW-nobody-has-this-pc/commands', { kind: 'pause' }, nobody.token),
  ).toMatchObject({ status: 404, body: { code: 'PC_OWNER_NOT_FOUND' } });
});

it('audits staff commands and names staff only to staff, live and in the timeline', async () => {
  const owner = await createBotOwner(server);
  const staff = await server.createUser({ permissions: ['can_manageMap'] });
  const { socket: watcher } = await connectAndAuthenticate(server, {
    type: 'client',
    token: owner.token,
    hwid: owner.hwid,
  });
  sockets.push(watcher);
  const { socket: staffSocket } = await connectAndAuthenticate(server, { type: 'admin', token: staff.token });
  sockets.push(staffSocket);
  const ownerSees = waitFor<BotCommand>(watcher, 'bot_command_update');
  const staffSees = waitFor<BotCommand>(staffSocket, 'bot_command_update');
  const routeEst = await publishedRoute(server, 'Route est');
  const sent = await call<Data<BotCommand>>(
    'POST',
    `/admin/bots/${owner.hwid}/commands`,
    { kind: 'configure', payload: { routeId: routeEst } },
    staff.token,
  );
  expect(sent.status).toBe(201);
  expect((await ownerSees).issuer).toEqual({ type: 'staff', username: null });
  expect((await staffSees).issuer).toEqual({ type: 'staff', username: staff.user.username });
  expect(sent.body.data.payload).toEqual({ routeId: routeEst, accounts: [] });

  const [audit] = await server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'bot.command'), eq(auditLog.targetId, owner.hwid)));
  expect(audit).toMatchObject({
    actorId: staff.user.id,
    targetType: 'bot',
    targetLabel: owner.user.username,
  });

  await call('POST', '/me/bot/commands', { kind: 'pause' }, owner.token);
  const mine = await call<Data<BotTimeline>>('GET', '/me/bot/timeline', undefined, owner.token);
  const commands = mine.body.data.entries.filter((entry) => entry.kind === 'command');
  expect(commands.map((entry) => [entry.action, entry.actor, entry.message])).toEqual([
    ['pause', 'vous', 'En file d’attente'],
    ['configure', 'l’équipe', 'En file d’attente'],
  ]);
  // The audit entry is not listed a second time as an action.
  expect(mine.body.data.entries.some((entry) => entry.kind === 'action')).toBe(false);
  const theirs = await call<Data<BotTimeline>>(
    'GET',
    `/admin/bots/${owner.hwid}/timeline`,
    undefined,
    staff.token,
  );
  expect(theirs.body.data.entries.find((entry) => entry.action === 'configure')?.actor).toBe(
    staff.user.username,
  );
  const listed = await call<Data<BotCommand[]>>('GET', '/me/bot/commands', undefined, owner.token);
  expect(listed.body.data.map((command) => command.issuer.username)).toEqual([owner.user.username, null]);
});

it('cancels a queued command, refuses to cancel one already sent, and caps what waits per bot', async () => {
  const owner = await createBotOwner(server);
  const queued = await call<Data<BotCommand>>('POST', '/me/bot/commands', { kind: 'pause' }, owner.token);
  const cancelled = await call<Data<BotCommand>>(
    'POST',
    `/me/bot/commands/${queued.body.data.id}/cancel`,
    undefined,
    owner.token,
  );
  expect(cancelled.body.data).toMatchObject({ state: 'cancelled', message: 'annulée par le propriétaire' });
  expect(
    (await call('POST', `/me/bot/commands/${queued.body.data.id}/cancel`, undefined, owner.token)).body,
  ).toMatchObject({ code: 'BOT_COMMAND_NOT_CANCELLABLE' });

  // Handed to a connected agent: it may be running, it can no longer be cancelled.
  const online = await createBotOwner(server);
  const agent = await connectOwnerBot(server, online);
  sockets.push(agent.socket);
  const handed = waitFor(agent.socket, 'bot_command');
  const sent = await call<Data<BotCommand>>('POST', '/me/bot/commands', { kind: 'pause' }, online.token);
  await handed;
  expect(
    await call('POST', `/me/bot/commands/${sent.body.data.id}/cancel`, undefined, online.token),
  ).toMatchObject({ status: 409, body: { code: 'BOT_COMMAND_NOT_CANCELLABLE' } });

  for (let i = 0; i < 3; i += 1)
    expect((await call('POST', '/me/bot/commands', { kind: 'resume' }, owner.token)).status).toBe(201);
  expect(await call('POST', '/me/bot/commands', { kind: 'restart' }, owner.token)).toMatchObject({
    status: 429,
    body: { code: 'BOT_COMMAND_LIMIT' },
  });
});

it('keeps one pending configuration per bot: a newer one replaces the older', async () => {
  const owner = await createBotOwner(server);
  const configure = (routeId: string) =>
    call<Data<BotCommand>>(
      'POST',
      '/me/bot/commands',
      { kind: 'configure', payload: { routeId } },
      owner.token,
    );
  const older = await configure(await publishedRoute(server));
  const newer = await configure(await publishedRoute(server));
  const listed = await call<Data<BotCommand[]>>('GET', '/me/bot/commands', undefined, owner.token);
  expect(listed.body.data.map((command) => [command.id, command.state, command.message])).toEqual([
    [newer.body.data.id, 'queued', null],
    [older.body.data.id, 'cancelled', 'remplacée'],
  ]);
});

it('expires a command the bot did not acknowledge within its time (the sweep started with the app)', async () => {
  const owner = await createBotOwner(server);
  const { socket: watcher } = await connectAndAuthenticate(server, {
    type: 'client',
    token: owner.token,
    hwid: owner.hwid,
  });
  sockets.push(watcher);
  const command = await issueBotCommand(server.ctx, {
    hwid: owner.hwid,
    command: { kind: 'restart' },
    issuer: { id: owner.user.id, username: owner.user.username, ip: null, staff: false },
    now: new Date(Date.now() - TTL_MS),
  });
  const expired = await waitFor<BotCommand>(
    watcher,
    'bot_command_update',
    (update) => update.id === command.id && update.state === 'expired',
  );
  expect(expired).toMatchObject({
    state: 'expired',
    message: 'Le bot ne s’est pas connecté avant l’échéance.',
  });
  await vi.waitFor(async () => {
    const listed = await call<Data<BotCommand[]>>('GET', '/me/bot/commands', undefined, owner.token);
    expect(listed.body.data[0]).toMatchObject({ id: command.id, state: 'expired' });
  });
});

it('expires a command the bot acknowledged but never finished, saying so; it no longer counts against the cap', async () => {
  const owner = await createBotOwner(server);
  const { socket: watcher } = await connectAndAuthenticate(server, {
    type: 'client',
    token: owner.token,
    hwid: owner.hwid,
  });
  sockets.push(watcher);
  const issuer = { id: owner.user.id, username: owner.user.username, ip: null, staff: false };
  // Its time runs out in a second: handed over and acknowledged at once, then the agent dies.
  const command = await issueBotCommand(server.ctx, {
    hwid: owner.hwid,
    command: { kind: 'restart' },
    issuer,
    now: new Date(Date.now() - TTL_MS + 1_000),
  });
  expect(await markCommandSent(server.ctx, { id: command.id, deliveries: 0 })).toBeDefined();
  expect(await acknowledgeCommand(server.ctx, { id: command.id, hwid: owner.hwid })).toBe(true);
  const expired = await waitFor<BotCommand>(
    watcher,
    'bot_command_update',
    (update) => update.id === command.id && update.state === 'expired',
  );
  expect(expired.message).toBe('Reçue par le bot, sans résultat dans le délai.');

  // Received commands are no longer waiting: three of them (the cap here) leave room for a fourth.
  for (let i = 0; i < 3; i++) {
    const received = await issueBotCommand(server.ctx, {
      hwid: owner.hwid,
      command: { kind: 'pause' },
      issuer,
    });
    await markCommandSent(server.ctx, { id: received.id, deliveries: 0 });
    expect(await acknowledgeCommand(server.ctx, { id: received.id, hwid: owner.hwid })).toBe(true);
  }
  const fourth = await issueBotCommand(server.ctx, {
    hwid: owner.hwid,
    command: { kind: 'resume' },
    issuer,
  });
  expect(fourth.state).toBe('queued');
});

it('refuses what names nothing real, and leaves a staff command to staff', async () => {
  const owner = await createBotOwner(server, { accounts: ['Vrai-Compte'] });
  const send = (body: unknown, token = owner.token, route = '/me/bot/commands') =>
    call<{ code: string; error: string }>('POST', route, body, token);
  expect(await send({ kind: 'configure', payload: { routeId: 'pas-une-route' } })).toMatchObject({
    status: 400,
    body: { code: 'ITINERARY_UNKNOWN', error: 'Itinéraire inconnu ou non publié.' },
  });
  expect(
    await send({ kind: 'configure', payload: { routeId: null, accounts: [{ name: 'Compte-d-un-autre' }] } }),
  ).toMatchObject({
    status: 400,
    body: { code: 'WHITELIST_ACCOUNT_UNKNOWN', details: { account: 'Compte-d-un-autre' } },
  });
  // A route of a kind the owner's package leaves out: their bot could not fetch it (`/bot/routes`).
  const gatherer = await createBotOwner(server, { permissions: ['can_useGathering'] });
  const treasureRoute = await publishedRoute(server, 'Trésor hors offre', 'treasure');
  const staffSender = await server.createUser({ permissions: ['can_manageUsers'] });
  expect(
    await send(
      { kind: 'configure', payload: { routeId: treasureRoute } },
      staffSender.token,
      `/admin/bots/${gatherer.hwid}/commands`,
    ),
  ).toMatchObject({
    status: 400,
    body: {
      code: 'ITINERARY_NOT_IN_PACKAGE',
      error: 'Cet itinéraire est d’un type que l’offre du propriétaire n’inclut pas.',
    },
  });

  // A command staff queued: the owner reads it unnamed and may not cancel it.
  const staff = await server.createUser({ permissions: ['can_manageUsers'] });
  const queued = await call<Data<BotCommand>>(
    'POST',
    `/admin/bots/${owner.hwid}/commands`,
    { kind: 'restart' },
    staff.token,
  );
  const refused = await call<{ code: string; error: string }>(
    'POST',
    `/me/bot/commands/${queued.body.data.id}/cancel`,
    undefined,
    owner.token,
  );
  expect(refused).toMatchObject({
    status: 403,
    body: {
      code: 'BOT_COMMAND_STAFF_ONLY',
      error: 'Commande envoyée par l’équipe : seule l’équipe peut l’annuler.',
    },
  });
  // The owner's own cancellation answers without naming anyone.
  const own = await call<Data<BotCommand>>('POST', '/me/bot/commands', { kind: 'pause' }, owner.token);
  const cancelled = await call<Data<BotCommand>>(
    'POST',
    `/me/bot/commands/${own.body.data.id}/cancel`,
    undefined,
    owner.token,
  );
  expect(cancelled.body.data.issuer).toEqual({ type: 'owner', username: owner.user.username });
  const byStaff = await call<Data<BotCommand>>(
    'POST',
    `/admin/bots/${owner.hwid}/commands/${queued.body.data.id}/cancel`,
    undefined,
    staff.token,
  );
  expect(byStaff.body.data).toMatchObject({
    state: 'cancelled',
    issuer: { type: 'staff', username: staff.user.username },
  });
});
