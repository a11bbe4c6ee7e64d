import {
  type BotAccount,
  type BotState,
  cellSizeOf,
  MAP_CELL_STRIDE,
  type MapCells,
  type MapViewport,
} from '@bot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import {
  account,
  collect,
  connectOwnerBot,
  createBotOwner,
  openSocket,
  type TestSocket,
  waitFor,
} from '../../../test/helpers/realtime.ts';

let server: TestServer;
const sockets: TestSocket[] = [];
/** Bot A's account near the origin, bot B's far east: a viewport can hold one without the other. */
const NEAR = { mapId: 1, x: 3, y: -4 };
const FAR = { mapId: 2, x: 300, y: 300 };
type TestBot = Awaited<ReturnType<typeof startBot>>;
let botA: TestBot;
let botB: TestBot;
let staffToken: string;

const around = (overrides: Partial<MapViewport> = {}): MapViewport => ({
  minX: -20,
  minY: -20,
  maxX: 20,
  maxY: 20,
  cellSize: null,
  statuses: [],
  owner: '',
  version: '',
  ...overrides,
});

async function startBot(position: typeof NEAR, status: 'gathering' | 'fighting') {
  const owner = await createBotOwner(server);
  const { socket, ack } = await connectOwnerBot(server, owner);
  expect(ack).toEqual({ ok: true });
  sockets.push(socket);
  const name = owner.accounts[0] as string;
  /** Reports the bot's one account where and as it is, with these changes. */
  const report = (changes: Partial<BotAccount> = {}) =>
    socket.emit('bot_update', { accounts: [account(name, { position, status, ...changes })] });
  report();
  return { socket, hwid: owner.hwid, report };
}

/** An admin socket offering a viewport; its first messages are collected from the start. */
async function openMap(viewport: MapViewport | undefined) {
  const socket = openSocket(server);
  sockets.push(socket);
  await waitFor(socket, 'connect');
  const received = {
    authenticated: waitFor<{ feed?: string }>(socket, 'authenticated'),
    batches: collect<BotState[]>(socket, 'bot_update'),
    dropped: collect<string>(socket, 'bot_disconnect'),
    snapshots: collect<BotState[]>(socket, 'bot_snapshot'),
    counts: collect<number>(socket, 'online_count'),
  };
  const ack = await socket.emitWithAck('authenticate', {
    type: 'admin',
    token: staffToken,
    ...(viewport ? { viewport } : {}),
  });
  expect(ack).toEqual({ ok: true });
  expect(await received.authenticated).toEqual({ type: 'admin', feed: viewport ? 'viewport' : 'full' });
  return { socket, ...received };
}

function hwidsIn(batches: BotState[][]): Set<string> {
  return new Set(batches.flat().map((state) => state.hwid));
}

/** Sums `map_cells` messages into account counts per status, keyed `column,row`. */
function countsOf(message: MapCells): Map<string, number[]> {
  const cells = new Map<string, number[]>();
  for (let at = 0; at < message.cells.length; at += MAP_CELL_STRIDE) {
    const [column, row, ...counts] = message.cells.slice(at, at + MAP_CELL_STRIDE);
    cells.set(`${column},${row}`, counts);
  }
  return cells;
}

beforeAll(async () => {
  // Two bots online is "a large fleet" here, so maps that offer a viewport follow it; a zoomed-in map
  // gets one bot one by one, counts beyond that.
  server = await startTestServer({
    realtime: { adminFlushMs: 50, mapCellsMs: 200, fullFeedMaxBots: 1, mapMaxStates: 1 },
  });
  staffToken = (await server.createUser({ permissions: ['can_manageMap'] })).token;
  botA = await startBot(NEAR, 'gathering');
  botB = await startBot(FAR, 'fighting');
  // Both bots have reported once the full feed shows their accounts.
  const full = await openMap(undefined);
  await vi.waitFor(() => {
    const states = [...full.snapshots.flat(), ...full.batches.flat()];
    expect(new Set(states.filter((state) => state.accounts.length > 0).map((state) => state.hwid))).toEqual(
      new Set([botA.hwid, botB.hwid]),
    );
  });
  full.socket.disconnect();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

describe('staff map viewports (decision 206)', () => {
  it('a small fleet gets the whole feed even when the map offers a viewport', async () => {
    const small = await startTestServer({ realtime: { fullFeedMaxBots: 10 } });
    try {
      const staff = await small.createUser({ permissions: ['can_manageMap'] });
      const socket = openSocket(small);
      sockets.push(socket);
      await waitFor(socket, 'connect');
      const authenticated = waitFor<{ feed?: string }>(socket, 'authenticated');
      const snapshot = waitFor<BotState[]>(socket, 'bot_snapshot');
      expect(
        await socket.emitWithAck('authenticate', { type: 'admin', token: staff.token, viewport: around() }),
      ).toEqual({ ok: true });
      expect(await authenticated).toEqual({ type: 'admin', feed: 'full' });
      expect(await snapshot).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('zoomed in: only the bots in view, a bot leaving it is dropped, panning brings the others', async () => {
    const map = await openMap(around());
    await vi.waitFor(() => expect(hwidsIn(map.batches)).toEqual(new Set([botA.hwid])));

    // B keeps reporting far away: never sent. A walks out of view: the map is told to drop it.
    botB.report({ level: 2 });
    botA.report({ position: { mapId: 3, x: 500, y: 500 } });
    await vi.waitFor(() => expect(map.dropped).toContain(botA.hwid));
    expect(hwidsIn(map.batches)).toEqual(new Set([botA.hwid]));
    expect(map.snapshots).toEqual([]);
    expect(map.counts).toEqual([2]);

    // The map pans to the far east: B arrives at once (it did not report since).
    map.batches.length = 0;
    map.socket.emit('map_viewport', around({ minX: 280, minY: 280, maxX: 320, maxY: 320 }));
    await vi.waitFor(() => expect(hwidsIn(map.batches)).toEqual(new Set([botB.hwid])));

    botA.report();
    await vi.waitFor(() => expect(map.dropped.filter((hwid) => hwid === botA.hwid)).toHaveLength(1));
    map.socket.disconnect();
  });

  it('filters apply on the server: the owner, then the status', async () => {
    const world = { minX: -1000, minY: -1000, maxX: 1000, maxY: 1000 };
    const map = await openMap(around({ ...world, owner: 'zz-nobody' }));
    map.socket.emit('map_viewport', around({ ...world, statuses: ['fighting'] }));
    await vi.waitFor(() => expect(hwidsIn(map.batches)).toEqual(new Set([botB.hwid])));
    // Sent in order: had the owner filter let A through, it would have arrived before B.
    expect(hwidsIn(map.batches).has(botA.hwid)).toBe(false);
    map.socket.disconnect();
  });

  it('zoomed out: per-cell counts by status instead of bots, sent again every second', async () => {
    const whole = around({ minX: -1000, minY: -1000, maxX: 1000, maxY: 1000, cellSize: 100 });
    const map = await openMap(whole);
    const first = await waitFor<MapCells>(map.socket, 'map_cells');
    expect(first.cellSize).toBe(100);
    const cells = countsOf(first);
    // (3, -4) is in cell (0, -1); (300, 300) in cell (3, 3). Counts follow BOT_STATUSES.
    expect(cells.get('0,-1')).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
    expect(cells.get('3,3')).toEqual([0, 0, 0, 0, 1, 0, 0, 0]);
    expect(cells.size).toBe(2);

    map.socket.emit('map_viewport', { ...whole, statuses: ['gathering'] });
    const filtered = await waitFor<MapCells>(
      map.socket,
      'map_cells',
      (message) => message.cells.length === MAP_CELL_STRIDE,
    );
    expect(filtered.node).toBe(first.node);
    expect(countsOf(filtered).get('0,-1')).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
    // Without a change, the counts come again by themselves.
    await waitFor<MapCells>(map.socket, 'map_cells');
    expect(map.batches).toEqual([]);
    map.socket.disconnect();
  });

  it('a malformed viewport is ignored, and a full-feed socket cannot switch to a viewport', async () => {
    const map = await openMap(around());
    map.socket.emit('map_viewport', { ...around(), minX: 50, maxX: -50 });
    map.socket.emit('map_viewport', { ...around(), cellSize: 'big' } as unknown as MapViewport);
    botB.report({ level: 3 });
    // Still the first viewport: A (in view) reports and arrives, B never does.
    botA.report({ level: 7 });
    await vi.waitFor(() =>
      expect(map.batches.flat().some((state) => state.accounts[0]?.level === 7)).toBe(true),
    );
    expect(hwidsIn(map.batches)).toEqual(new Set([botA.hwid]));
    expect(map.socket.connected).toBe(true);
    map.socket.disconnect();

    const full = await openMap(undefined);
    full.socket.emit('map_viewport', around());
    botB.report({ level: 4 });
    await vi.waitFor(() => expect(hwidsIn(full.batches)).toContain(botB.hwid));
    full.socket.disconnect();
  });

  it('changes closer than 250 ms apart are held back, and only the latest is applied', async () => {
    const far = around({ minX: 280, minY: 280, maxX: 320, maxY: 320 });
    const map = await openMap(far);
    await vi.waitFor(() => expect(hwidsIn(map.batches)).toEqual(new Set([botB.hwid])));
    // Around A, then at once a slightly larger far area: the first never takes effect.
    map.socket.emit('map_viewport', around());
    map.socket.emit('map_viewport', { ...far, maxX: 330 });
    // Applying the far area again re-sends B (it did not report meanwhile).
    await vi.waitFor(() =>
      expect(map.batches.flat().filter((state) => state.hwid === botB.hwid).length).toBeGreaterThanOrEqual(2),
    );
    expect(hwidsIn(map.batches).has(botA.hwid)).toBe(false);
    map.socket.disconnect();
  });

  it('zoomed in on more bots than it gets one by one: their counts instead, states again once narrowed', async () => {
    // The whole world zoomed in holds both bots: counts in cells a sixty-fourth of the area wide.
    const world = around({ minX: -1000, minY: -1000, maxX: 1000, maxY: 1000 });
    const map = await openMap(world);
    const counted = await waitFor<MapCells>(map.socket, 'map_cells');
    expect(counted.cellSize).toBe(cellSizeOf(world));
    expect(counted.cellSize).toBe(32);
    // (3, -4) is in cell (0, -1) of 32, (300, 300) in cell (9, 9).
    expect(countsOf(counted)).toEqual(
      new Map([
        ['0,-1', [0, 0, 1, 0, 0, 0, 0, 0]],
        ['9,9', [0, 0, 0, 0, 1, 0, 0, 0]],
      ]),
    );
    expect(map.batches).toEqual([]);

    // Narrowed on A: the node withdraws its counts (none), then A's state comes again.
    const withdrawn = waitFor<MapCells>(map.socket, 'map_cells', (message) => message.cells.length === 0);
    map.socket.emit('map_viewport', around());
    expect(await withdrawn).toEqual({ node: counted.node, cellSize: cellSizeOf(around()), cells: [] });
    await vi.waitFor(() => expect(hwidsIn(map.batches)).toEqual(new Set([botA.hwid])));

    // B walks into view: both leave the map one by one, their counts come instead.
    botB.report({ position: { mapId: 1, x: 5, y: 5 } });
    await vi.waitFor(() => expect(new Set(map.dropped)).toEqual(new Set([botA.hwid, botB.hwid])));
    await waitFor<MapCells>(map.socket, 'map_cells', (message) => countsOf(message).has('5,5'));
    // B walks away again: one bot, no longer above the cap but not a quarter below it: still counts.
    botB.report();
    await waitFor<MapCells>(
      map.socket,
      'map_cells',
      (message) => !countsOf(message).has('5,5') && countsOf(message).has('3,-4'),
    );
    map.socket.disconnect();
  });
});
