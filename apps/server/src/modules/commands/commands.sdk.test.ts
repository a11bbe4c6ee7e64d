import {
  type BotClient,
  CommandRunner,
  createBotClient,
  runSimulatedCommands,
  SimulatedBot,
} from '@bot/bot-agent';
import type { BotCommand, BotCommandDelivery, BotCommandInput, BotState } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  collect,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  openSocket,
  type TestSocket,
  waitFor,
  waitForClose,
  whitelist,
} from '../../../test/helpers/realtime.ts';
import { publishedRoute } from '../../../test/helpers/routes.ts';

let server: TestServer;
const sockets: TestSocket[] = [];
const clients: BotClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ commands: { sweepMs: 100 } });
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

type Owner = Awaited<ReturnType<typeof createBotOwner>>;

let accountSeries = 0;
async function ownerWatching(names = ['One', 'Two']) {
  accountSeries += 1;
  const accounts = names.map((name) => `Cmd${accountSeries}-${name}`);
  const owner = await createBotOwner(server, { accounts });
  const { socket, ack } = await connectAndAuthenticate(server, {
    type: 'client',
    token: owner.token,
    hwid: owner.hwid,
  });
  expect(ack).toEqual({ ok: true });
  sockets.push(socket);
  // Every update from the start: one may arrive before the POST that caused it has answered.
  const updates = collect<BotCommand>(socket, 'bot_command_update');
  return { owner, watcher: socket, updates };
}

/** The real SDK running the simulator's commands for this owner's PC. */
async function simulatedAgent(owner: Owner) {
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
  });
  clients.push(client);
  const world = new SimulatedBot(owner.hwid, owner.accounts);
  const commands = runSimulatedCommands(client, world);
  await client.connect();
  return { client, world, commands };
}

async function send(owner: Owner, command: BotCommandInput): Promise<BotCommand> {
  const answer = await apiClient(server)<{ data: BotCommand }>(
    'POST',
    '/me/bot/commands',
    command,
    owner.token,
  );
  expect(answer.status).toBe(201);
  return answer.body.data;
}

async function listed(owner: Owner): Promise<BotCommand[]> {
  const answer = await apiClient(server)<{ data: BotCommand[] }>(
    'GET',
    '/me/bot/commands',
    undefined,
    owner.token,
  );
  return answer.body.data;
}

/**
 * A raw bot agent that records the commands it is handed from before it authenticates (they may
 * come in the same read as the authentication's answer) and never acknowledges on its own.
 */
async function rawAgent(owner: Owner) {
  const socket = openSocket(server, { hwid: owner.hwid });
  sockets.push(socket);
  const deliveries = collect<BotCommandDelivery>(socket, 'bot_command');
  await waitFor(socket, 'connect');
  const ack = await socket
    .timeout(5_000)
    .emitWithAck('authenticate', { type: 'bot', token: owner.botToken, hwid: owner.hwid });
  expect(ack).toEqual({ ok: true });
  return { socket, deliveries };
}

/** Resolves with the update of that command reaching that state, whenever it came. */
const ended = (updates: BotCommand[], id: string, state = 'succeeded') =>
  vi.waitFor(() => {
    const update = updates.find((command) => command.id === id && command.state === state);
    if (!update) throw new Error(`commande ${id} jamais ${state}`);
    return update;
  });

it('runs each command through its whole life with the real SDK and the simulator', async () => {
  const { owner, watcher, updates } = await ownerWatching();
  const { client, world, commands } = await simulatedAgent(owner);

  const pause = await send(owner, { kind: 'pause' });
  await ended(updates, pause.id);
  expect(commands.isPaused()).toBe(true);
  // The watcher saw every step, in order, and the owner as the issuer. The bot was online: the
  // issuance marked it `sent` itself (decision 013).
  expect(pause.state).toBe('sent');
  expect(updates.filter((update) => update.id === pause.id).map((update) => update.state)).toEqual([
    'sent',
    'acknowledged',
    'succeeded',
  ]);
  expect(updates[0]?.issuer).toEqual({ type: 'owner', username: owner.user.username });

  const resume = await send(owner, { kind: 'resume' });
  await ended(updates, resume.id);
  expect(commands.isPaused()).toBe(false);

  const [north, south] = [await publishedRoute(server, 'Nord'), await publishedRoute(server, 'Sud')];
  const configure = await send(owner, {
    kind: 'configure',
    payload: { routeId: north, accounts: [{ name: owner.accounts[1]!, routeId: south }] },
  });
  await ended(updates, configure.id);
  expect(world.tick().accounts.map((account) => account.routeId)).toEqual([north, south]);

  const stop = await send(owner, { kind: 'stopAccount', payload: { account: owner.accounts[0]! } });
  await ended(updates, stop.id);
  const stopped = waitFor<BotState>(watcher, 'bot_update', (state) =>
    state.accounts.some((account) => account.name === owner.accounts[0] && account.status === 'stopped'),
  );
  client.report(world.tick());
  await stopped;

  // An account off the owner's whitelist is refused by the server; one whitelisted that this bot
  // does not drive reaches the agent, which says so.
  const refused = await apiClient(server)<{ code: string; error: string }>(
    'POST',
    '/me/bot/commands',
    { kind: 'stopAccount', payload: { account: 'Inconnu-du-serveur' } },
    owner.token,
  );
  expect(refused).toMatchObject({ status: 400, body: { code: 'WHITELIST_ACCOUNT_UNKNOWN' } });
  expect(refused.body.error).toBe(
    'Le compte de jeu Inconnu-du-serveur n’est pas sur la liste blanche de ce bot.',
  );
  await whitelist(server, owner.user.id, ['Personne']);
  const unknown = await send(owner, { kind: 'stopAccount', payload: { account: 'Personne' } });
  const failed = await ended(updates, unknown.id, 'failed');
  expect(failed.message).toBe('Compte de jeu inconnu : Personne');

  // Restart: the result first, then the agent reconnects.
  const reconnected = new Promise<void>((resolve) => client.on('authenticated', resolve));
  const restart = await send(owner, { kind: 'restart' });
  await ended(updates, restart.id);
  await reconnected;
  expect(client.isConnected).toBe(true);

  expect((await listed(owner)).map((command) => [command.kind, command.state])).toEqual([
    ['restart', 'succeeded'],
    ['stopAccount', 'failed'],
    ['stopAccount', 'succeeded'],
    ['configure', 'succeeded'],
    ['resume', 'succeeded'],
    ['pause', 'succeeded'],
  ]);
});

it('keeps a command queued while the bot is offline and delivers it when it connects', async () => {
  const { owner, updates } = await ownerWatching();
  const pause = await send(owner, { kind: 'pause' });
  expect((await listed(owner))[0]).toMatchObject({ id: pause.id, state: 'queued' });
  const done = ended(updates, pause.id);
  const { commands } = await simulatedAgent(owner);
  await done;
  expect(commands.isPaused()).toBe(true);
});

it('hands each of several bots connecting at once its own waiting commands, in their order', async () => {
  const owners = await Promise.all([ownerWatching(), ownerWatching(), ownerWatching()]);
  const queued = [];
  for (const { owner } of owners)
    queued.push([await send(owner, { kind: 'pause' }), await send(owner, { kind: 'resume' })]);
  // Connected together, their waiting commands are read in one batch.
  const agents = await Promise.all(owners.map(({ owner }) => rawAgent(owner)));
  for (const [index, { deliveries }] of agents.entries()) {
    const expected = queued[index]!.map((command) => command.id);
    await vi.waitFor(() => expect(deliveries.map((delivery) => delivery.id)).toEqual(expected));
  }
});

it('leaves a command sent when the agent drops before acknowledging it, and re-sends it once on reconnection', async () => {
  const { owner, watcher, updates } = await ownerWatching();
  // A raw agent that receives commands but does not acknowledge them.
  const first = await rawAgent(owner);
  const pause = await send(owner, { kind: 'pause' });
  await vi.waitFor(() => expect(first.deliveries).toEqual([{ id: pause.id, kind: 'pause', payload: {} }]));

  // Another bot acknowledging this command's id moves nothing: it is not its command.
  const stranger = await createBotOwner(server);
  const other = await connectOwnerBot(server, stranger);
  sockets.push(other.socket);
  other.socket.emit('bot_command_ack', { id: pause.id });
  other.socket.emit('bot_command_result', { id: pause.id, ok: true });
  other.socket.disconnect();

  const offline = waitFor<BotState>(watcher, 'bot_update', (state) => !state.online);
  first.socket.disconnect();
  await offline; // the hub has handled everything the agent sent
  const [stored] = await listed(owner);
  expect(stored).toMatchObject({ id: pause.id, state: 'sent' });

  // Reconnected: handed over once more, exactly once; only then acknowledged.
  const second = await rawAgent(owner);
  const { deliveries } = second;
  await vi.waitFor(() => expect(deliveries).toHaveLength(1));
  expect(deliveries[0]).toEqual({ id: pause.id, kind: 'pause', payload: {} });
  const acknowledged = ended(updates, pause.id, 'acknowledged');
  second.socket.emit('bot_command_ack', { id: pause.id });
  await acknowledged;
  const succeeded = ended(updates, pause.id);
  second.socket.emit('bot_command_result', { id: pause.id, ok: true });
  await succeeded;
  // A third connection gets nothing: the command is over.
  second.socket.disconnect();
  await waitForClose(second.socket);
  const { deliveries: later } = await rawAgent(owner);
  const resume = await send(owner, { kind: 'resume' });
  await vi.waitFor(() => expect(later.map((delivery) => delivery.id)).toEqual([resume.id]));
  expect(deliveries).toHaveLength(1);
});

it('runs a command once when the agent gets it twice, and keeps a result until it is connected', async () => {
  const sent: string[] = [];
  let connected = false;
  const runner = new CommandRunner({
    ack: (id) => void sent.push(`ack ${id}`),
    result: (result) => connected && sent.push(`result ${result.id} ${result.ok}`) > 0,
  });
  let runs = 0;
  runner.on('pause', async () => {
    runs += 1;
    return undefined;
  });
  const id = '01a217b9-0ecb-7402-9ec1-12e3298aa57e';
  runner.receive({ id, kind: 'pause', payload: {} });
  runner.receive({ id, kind: 'pause', payload: {} });
  // Once the handler's outcome settled (every pending promise callback has run), nothing was sent
  // but the acknowledgements: both results wait for a connection.
  await new Promise((resolve) => setImmediate(resolve));
  expect(runs).toBe(1);
  expect(sent).toEqual([`ack ${id}`, `ack ${id}`]);
  connected = true;
  runner.flush();
  expect(sent).toEqual([`ack ${id}`, `ack ${id}`, `result ${id} true`, `result ${id} true`]);
  expect(runs).toBe(1);
});

it('shows a paused bot as paused (the SDK says so in its reports, kept alive while the simulator is silent), until it resumes', async () => {
  const { owner, watcher, updates } = await ownerWatching();
  const client = createBotClient({
    serverUrl: server.url,
    trustRoot: server.trustRoot,
    accessKey: owner.accessKey,
    hwid: owner.hwid,
    version: '1.0.0',
    keepAliveMs: 200,
  });
  clients.push(client);
  const world = new SimulatedBot(owner.hwid, owner.accounts);
  const commands = runSimulatedCommands(client, world);
  await client.connect();
  const reported = waitFor<BotState>(watcher, 'bot_update', (state) => state.accounts.length === 2);
  client.report(world.tick());
  expect((await reported).paused).toBeUndefined();

  const paused = waitFor<BotState>(watcher, 'bot_update', (state) => state.paused === true);
  const pause = await send(owner, { kind: 'pause' });
  await ended(updates, pause.id);
  await paused;
  expect(commands.isPaused()).toBe(true);
  // The simulator reports nothing while paused: the SDK's keep-alive still says "paused".
  const kept = collect<BotState>(watcher, 'bot_update');
  await vi.waitFor(() => expect(kept.filter((state) => state.paused === true).length).toBeGreaterThan(1));

  const running = waitFor<BotState>(watcher, 'bot_update', (state) => state.online && !state.paused);
  const resume = await send(owner, { kind: 'resume' });
  await ended(updates, resume.id);
  await running;
});
