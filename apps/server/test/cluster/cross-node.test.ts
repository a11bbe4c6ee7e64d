import type { BotHistoryPoint, BotHistoryUpdate, BotState, MapCells, PublicSettings } from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, type TestServer } from '../harness.ts';
import {
  account,
  collect,
  connectAndAuthenticate,
  createBotOwner,
  openSocket,
  type TestSocket,
  waitFor,
  waitForClose,
} from '../helpers/realtime.ts';
import { type InProcessCluster, startInProcessCluster } from './in-process-cluster.ts';

let cluster: InProcessCluster;
let nodeA: TestServer;
let nodeB: TestServer;
const sockets: TestSocket[] = [];
const track = <T extends { socket: TestSocket }>(value: T): T => {
  sockets.push(value.socket);
  return value;
};

beforeAll(async () => {
  cluster = await startInProcessCluster({
    nodes: 2,
    realtime: {
      adminFlushMs: 100,
      offlineTimeoutMs: 5_000,
      historyFlushMs: 60_000,
      botUpdatesPerSecond: 50,
      mapCellsMs: 300,
      // Any fleet is "large": a map that offers a viewport follows it (those that do not get the full feed).
      fullFeedMaxBots: 0,
    },
    rateLimits: { loginPerAccountAndIp: { max: 4, windowMs: 60_000 } },
  });
  [nodeA, nodeB] = cluster.nodes as [TestServer, TestServer];
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await cluster?.close();
});

async function connectBot(node: TestServer, owner: { botToken: string; hwid: string }) {
  const connected = track(
    await connectAndAuthenticate(node, { type: 'bot', token: owner.botToken, hwid: owner.hwid }),
  );
  expect(connected.ack).toEqual({ ok: true });
  return connected.socket;
}

async function connectAdmin(node: TestServer, token: string) {
  const { socket, ack } = track(await connectAndAuthenticate(node, { type: 'admin', token }));
  expect(ack).toEqual({ ok: true });
  return socket;
}

async function connectOwner(node: TestServer, owner: { token: string; hwid: string }) {
  const { socket, ack } = track(
    await connectAndAuthenticate(node, { type: 'client', token: owner.token, hwid: owner.hwid }),
  );
  expect(ack).toEqual({ ok: true });
  return socket;
}

/** Bot states this node delivered to its sockets watching one bot (its metrics). */
async function ownerStatesSent(node: TestServer): Promise<number> {
  const counter = await node.ctx.metrics.registry.getSingleMetric('bot_states_sent_total')?.get();
  return counter?.values.find((value) => value.labels.audience === 'owner')?.value ?? 0;
}

/** Reports until `received` holds a state of the bot with that level (a new watcher elsewhere
 * learns of the room within a refresh, so one report may go nowhere). */
async function reportUntilSeen(bot: TestSocket, accountName: string, level: number, seen: () => boolean) {
  await vi.waitFor(
    () => {
      if (!seen()) {
        bot.emit('bot_update', { accounts: [account(accountName, { level })] });
        throw new Error('not seen yet');
      }
    },
    { timeout: 10_000, interval: 300 },
  );
}

describe('one platform across nodes', () => {
  it('a bot on B is seen by an admin and by its owner on A: snapshot, then updates', async () => {
    const staff = await nodeA.createUser({ permissions: ['can_manageMap'] });
    const owner = await createBotOwner(nodeA);
    const bot = await connectBot(nodeB, owner);

    const admin = track({ socket: openSocket(nodeA) });
    await waitFor(admin.socket, 'connect');
    const snapshot = waitFor<BotState[]>(admin.socket, 'bot_snapshot');
    expect(await admin.socket.emitWithAck('authenticate', { type: 'admin', token: staff.token })).toEqual({
      ok: true,
    });
    expect((await snapshot).map((state) => state.hwid)).toContain(owner.hwid);

    const ownerSocket = await connectOwner(nodeA, owner);
    const ownerStates = collect<BotState>(ownerSocket, 'bot_update');
    const adminBatches = collect<BotState[]>(admin.socket, 'bot_update');
    const name = owner.accounts[0]!;
    const levelSeen = (level: number) => () =>
      ownerStates.some((state) => state.accounts[0]?.level === level) &&
      adminBatches.flat().some((state) => state.hwid === owner.hwid && state.accounts[0]?.level === level);
    await reportUntilSeen(bot, name, 77, levelSeen(77));
    expect(ownerStates.at(-1)).toMatchObject({ hwid: owner.hwid, online: true });
  });

  it('a bot’s states go only to the nodes that watch it, and its offline notice follows', async () => {
    const owner = await createBotOwner(nodeA);
    const bot = await connectBot(nodeB, owner);
    const ownerSocket = await connectOwner(nodeA, owner);
    const ownerStates = collect<BotState>(ownerSocket, 'bot_update');
    const [sentByA, sentByB] = [await ownerStatesSent(nodeA), await ownerStatesSent(nodeB)];
    const name = owner.accounts[0]!;
    await reportUntilSeen(bot, name, 31, () => ownerStates.some((state) => state.accounts[0]?.level === 31));
    expect(await ownerStatesSent(nodeA)).toBeGreaterThan(sentByA);
    expect(await ownerStatesSent(nodeB)).toBe(sentByB); // B holds the bot but no watcher: it sent nothing

    bot.disconnect();
    await vi.waitFor(() => expect(ownerStates.at(-1)).toMatchObject({ hwid: owner.hwid, online: false }), {
      timeout: 10_000,
    });
    expect(ownerStates.at(-1)?.accounts[0]?.level).toBe(31);
  });

  it('the shared store gets each bot’s latest state, however often it reports (written at most every 2 s)', async () => {
    const owner = await createBotOwner(nodeA);
    const bot = await connectBot(nodeB, owner);
    const name = owner.accounts[0]!;
    for (let level = 60; level < 70; level++)
      bot.emit('bot_update', { accounts: [account(name, { level })] });
    await vi.waitFor(
      async () => expect((await nodeA.ctx.live.botState(owner.hwid))?.accounts[0]?.level).toBe(69),
      { timeout: 10_000, interval: 200 },
    );
  });

  it('a bot reconnecting to the same node keeps its new connection when the old one’s last state is written', async () => {
    const owner = await createBotOwner(nodeA);
    const name = owner.accounts[0]!;
    const ownerStates = collect<BotState>(await connectOwner(nodeB, owner), 'bot_update');
    const older = await connectBot(nodeB, owner);
    await reportUntilSeen(older, name, 80, () =>
      ownerStates.some((state) => state.accounts[0]?.level === 80),
    );
    const newer = await connectBot(nodeB, owner);
    const refusals = collect<{ code: string }>(newer, 'auth_error');
    await waitForClose(older);
    newer.emit('bot_update', { accounts: [account(name, { level: 81 })] });
    // Written after the older connection's pending state would have been (both at most every 2 s).
    await vi.waitFor(
      async () => expect((await nodeA.ctx.live.botState(owner.hwid))?.accounts[0]?.level).toBe(81),
      { timeout: 10_000, interval: 200 },
    );
    expect(refusals).toEqual([]);
    expect(newer.connected).toBe(true);
  });

  it('the online count and the users-online lists agree on every node', async () => {
    const staff = await nodeA.createUser({ permissions: ['can_manageMap', 'can_manageUsersOnline'] });
    const owners = await Promise.all([createBotOwner(nodeA), createBotOwner(nodeA)]);
    await connectBot(nodeA, owners[0]!);
    await connectBot(nodeB, owners[1]!);
    const viewerA = await connectAdmin(nodeA, staff.token);
    await connectAdmin(nodeB, staff.token);
    expect(viewerA.connected).toBe(true);
    const listed = async (node: TestServer) => {
      const answer = await apiClient(node)<{ total: number; data: { hwid: string }[] }>(
        'GET',
        '/admin/users-online/bots?pageSize=200',
        undefined,
        staff.token,
      );
      expect(answer.status).toBe(200);
      return answer.body;
    };
    await vi.waitFor(async () => {
      const [onA, onB] = await Promise.all([listed(nodeA), listed(nodeB)]);
      expect(onA.total).toBe(onB.total);
      for (const owner of owners) {
        expect(onA.data.map((bot) => bot.hwid)).toContain(owner.hwid);
        expect(onB.data.map((bot) => bot.hwid)).toContain(owner.hwid);
      }
    });
    const sessions = async (node: TestServer) =>
      (
        await apiClient(node)<{ data: { userId: string; liveSockets: number }[] }>(
          'GET',
          '/admin/users-online/sessions?pageSize=200',
          undefined,
          staff.token,
        )
      ).body.data.find((session) => session.userId === staff.user.id)?.liveSockets;
    // The staff member's two admin sockets, one per node, are counted by both nodes.
    expect(await sessions(nodeA)).toBe(2);
    expect(await sessions(nodeB)).toBe(2);
  });

  it('one socket per hwid across nodes: the newer connection wins, the older one is closed, no offline blip', async () => {
    const staff = await nodeA.createUser({ permissions: ['can_manageMap'] });
    const owner = await createBotOwner(nodeA);
    const admin = await connectAdmin(nodeA, staff.token);
    const disconnects = collect<string>(admin, 'bot_disconnect');
    const older = await connectBot(nodeA, owner);
    const replaced = waitFor<{ code: string }>(older, 'auth_error');
    const newer = await connectBot(nodeB, owner);
    expect((await replaced).code).toBe('BOT_REPLACED');
    await waitForClose(older);
    const name = owner.accounts[0]!;
    newer.emit('bot_update', { accounts: [account(name, { level: 12 })] });
    const call = apiClient(nodeA);
    await vi.waitFor(async () => {
      const answer = await call<{ data: { hwid: string }[] }>(
        'GET',
        `/admin/users-online/bots?q=${owner.hwid}`,
        undefined,
        (await nodeA.createUser({ permissions: ['can_manageUsersOnline'] })).token,
      );
      expect(answer.body.data.map((bot) => bot.hwid)).toEqual([owner.hwid]);
    });
    expect(disconnects).not.toContain(owner.hwid);
    expect(newer.connected).toBe(true);
  });

  it('a ban on A closes the user’s sockets on B; a logout on A closes that session’s socket on B', async () => {
    const staff = await nodeA.createUser({ isAdministrator: true });
    const owner = await createBotOwner(nodeA);
    const bot = await connectBot(nodeB, owner);
    const browser = await connectOwner(nodeB, owner);
    const botClosed = waitFor<{ code: string }>(bot, 'auth_error');
    const browserClosed = waitFor<{ code: string }>(browser, 'auth_error');
    const banned = await apiClient(nodeA)(
      'POST',
      `/admin/users/${owner.user.id}/ban`,
      { reason: 'triche' },
      staff.token,
    );
    expect(banned.status).toBe(200);
    expect((await botClosed).code).toBe('ACCOUNT_BANNED');
    expect((await browserClosed).code).toBe('ACCOUNT_BANNED');

    const customer = await createBotOwner(nodeA);
    const watching = await connectOwner(nodeB, customer);
    const loggedOut = waitFor<{ code: string }>(watching, 'auth_error');
    expect((await apiClient(nodeA)('POST', '/auth/logout', undefined, customer.token)).status).toBe(200);
    expect((await loggedOut).code).toBe('UNAUTHORIZED');
    // And node B no longer accepts the token (its session cache was dropped by the relayed event).
    expect((await apiClient(nodeB)('GET', '/me/info', undefined, customer.token)).status).toBe(401);
  });

  it('a bot key rotated on A closes the bot on B; a PC reset on A closes the other PC’s bot on B', async () => {
    const owner = await createBotOwner(nodeA);
    const bot = await connectBot(nodeB, owner);
    const closed = waitFor<{ code: string }>(bot, 'auth_error');
    expect((await apiClient(nodeA)('POST', '/me/bot-key', undefined, owner.token)).status).toBe(200);
    expect((await closed).code).toBe('BOT_SESSION_INVALID');

    const other = await createBotOwner(nodeA);
    const otherBot = await connectBot(nodeB, other);
    const reset = waitFor<{ code: string }>(otherBot, 'auth_error');
    expect((await apiClient(nodeA)('DELETE', '/me/hwid', undefined, other.token)).status).toBe(200);
    expect((await reset).code).toBe('BOT_SESSION_INVALID');
  });

  it('login throttling is shared: failures on A and B add up', async () => {
    const user = await nodeA.createUser();
    const attempt = (node: TestServer) =>
      apiClient(node)('POST', '/auth/login', { username: user.user.username, password: 'pas-le-bon-1' });
    for (const node of [nodeA, nodeB, nodeA, nodeB]) expect((await attempt(node)).status).toBe(401);
    const locked = await attempt(nodeA);
    expect(locked.status).toBe(429);
    expect((await attempt(nodeB)).status).toBe(429);
    expect((locked.body as { code: string }).code).toBe('RATE_LIMITED');
  });

  it('a settings change on A reaches browsers on B and B’s answers at once', async () => {
    const staff = await nodeA.createUser({ isAdministrator: true });
    const owner = await createBotOwner(nodeA);
    const browser = await connectOwner(nodeB, owner);
    const update = waitFor<PublicSettings>(
      browser,
      'settings_update',
      (settings) => settings.isSnow === true,
    );
    const changed = await apiClient(nodeA)('PUT', '/admin/settings', { isSnow: true }, staff.token);
    expect(changed.status).toBe(200);
    expect((await update).isSnow).toBe(true);
    const onB = await apiClient(nodeB)<PublicSettings>('GET', '/settings/public');
    expect(onB.body.isSnow).toBe(true);
  });

  it('raising the minimum version on A closes the outdated agents of every node, saying where to download', async () => {
    const staff = await nodeA.createUser({ isAdministrator: true });
    const onA = await connectBot(nodeA, await createBotOwner(nodeA));
    const onB = await connectBot(nodeB, await createBotOwner(nodeA));
    const refusals = [onA, onB].map((bot) => waitFor<{ code: string; error: string }>(bot, 'auth_error'));
    try {
      expect(
        (await apiClient(nodeA)('PUT', '/admin/settings', { minBotVersion: '2.0.0' }, staff.token)).status,
      ).toBe(200);
      for (const refused of await Promise.all(refusals)) {
        expect(refused.code).toBe('BOT_VERSION_OUTDATED');
        expect(refused.error).toContain('/started');
      }
    } finally {
      await apiClient(nodeA)('PUT', '/admin/settings', { minBotVersion: '0.0.0' }, staff.token);
    }
  });

  it('a staff map on A following a viewport gets the bots of B in view, and B’s cell counts', async () => {
    const staff = await nodeA.createUser({ permissions: ['can_manageMap'] });
    const owner = await createBotOwner(nodeA);
    const bot = await connectBot(nodeB, owner);
    // A corner of the world no other test uses.
    const corner = { mapId: 9, x: -777, y: 777 };
    bot.emit('bot_update', { accounts: [account(owner.accounts[0] as string, { position: corner })] });
    const viewport = {
      minX: -790,
      minY: 760,
      maxX: -760,
      maxY: 790,
      cellSize: null,
      statuses: [],
      owner: '',
      version: '',
    };

    const map = track({ socket: openSocket(nodeA) });
    await waitFor(map.socket, 'connect');
    const batches = collect<BotState[]>(map.socket, 'bot_update');
    const cells = collect<MapCells>(map.socket, 'map_cells');
    expect(
      await map.socket.emitWithAck('authenticate', { type: 'admin', token: staff.token, viewport }),
    ).toEqual({ ok: true });
    await vi.waitFor(() =>
      expect(batches.flat().map((state) => state.hwid)).toEqual(expect.arrayContaining([owner.hwid])),
    );
    expect(new Set(batches.flat().map((state) => state.hwid))).toEqual(new Set([owner.hwid]));

    // Zoomed in, under the cap: no counts from either node (each withdraws any it sent).
    expect(cells.every((message) => message.cells.length === 0)).toBe(true);

    // Zoomed out: both nodes send their counts; only B's hold the bot.
    map.socket.emit('map_viewport', { ...viewport, cellSize: 64 });
    const zoomedOut = () => cells.filter((message) => message.cellSize === 64);
    await vi.waitFor(() => expect(new Set(zoomedOut().map((message) => message.node)).size).toBe(2));
    const counted = zoomedOut().filter((message) => message.cells.length > 0);
    expect(new Set(counted.map((message) => message.node)).size).toBe(1);
    // (-777, 777) lies in cell (-13, 12) at 64 per side: one account, gathering (account() default).
    expect(counted.at(-1)?.cells).toEqual([-13, 12, 0, 0, 1, 0, 0, 0, 0, 0]);
  });

  it('the owner’s page opened on another node than the bot gets its minutes not written yet at once', async () => {
    const owner = await createBotOwner(nodeA, { accounts: ['Charted'] });
    const bot = await connectBot(nodeB, owner);
    const charted = (gathered: number) =>
      account('Charted', { stats: { gathered, treasures: 0, kamas: 0, xp: 0 } });
    for (let i = 0; i <= 5; i += 1) bot.emit('bot_update', { accounts: [charted(10 * i)] });
    const total = (points: BotHistoryPoint[] = []) => points.reduce((sum, point) => sum + point.gathered, 0);
    const read = () =>
      apiClient(nodeB)<{ data: { history: BotHistoryPoint[] } }>('GET', '/me/bot', undefined, owner.token);
    await vi.waitFor(async () => expect(total((await read()).body.data.history)).toBe(50)); // all on B
    // Opened on A with the bot silent: B pushes what it holds (decision 013), no report needed.
    const page = await connectOwner(nodeA, owner);
    const pushed = collect<BotHistoryUpdate>(page, 'bot_history');
    await vi.waitFor(() => expect(pushed.at(-1)?.hwid).toBe(owner.hwid));
    expect(total(pushed.at(-1)?.points)).toBe(50);
  });

  it('history is written once, by the node holding the bot, whichever nodes shut down (last: it restarts both)', async () => {
    const owner = await createBotOwner(nodeA, { accounts: ['Miner'] });
    const bot = await connectBot(nodeB, owner);
    for (let i = 0; i <= 5; i += 1) {
      bot.emit('bot_update', {
        accounts: [account('Miner', { stats: { gathered: 10 * i, treasures: 0, kamas: 0, xp: 0 } })],
      });
    }
    const gathered = async (node: TestServer) => {
      const answer = await apiClient(node)<{ data: { history: BotHistoryPoint[] } }>(
        'GET',
        '/me/bot',
        undefined,
        owner.token,
      );
      return answer.body.data.history.reduce((total, point) => total + point.gathered, 0);
    };
    await vi.waitFor(async () => expect(await gathered(nodeB)).toBe(50));
    // A rolling restart: each node writes what it buffered as it shuts down, and only B held the bot.
    await nodeA.restart();
    await nodeB.restart();
    expect(await gathered(nodeA)).toBe(50);
    expect(await gathered(nodeB)).toBe(50);
  });
});
