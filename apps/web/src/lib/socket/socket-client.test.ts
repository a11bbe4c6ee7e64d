import {
  type BotState,
  cellSizeOf,
  SOCKET_RANDOMIZATION_FACTOR,
  SOCKET_RECONNECTION_DELAY_MAX_MS,
  SOCKET_RECONNECTION_DELAY_MS,
  SOCKET_TIMEOUT_MS,
} from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { diffBotStates } from './bot-cache.ts';
import {
  applyBatch,
  applyCells,
  applyDisconnect,
  applySnapshot,
  applyViewport,
  countCellAccounts,
  countFleetAccounts,
  emptyFleet,
  FLEET_TOTALS_VIEWPORT,
  startViewportFeed,
} from './fleet-cache.ts';
import { createSocketClient, HWID_REQUIRED, socketOptions, TOKEN_MISSING } from './socket-client.ts';

// The client against the real server and hub: e2e/socket-client.e2e.test.ts. Here, what needs no socket.

/** A client whose `io` only counts the sockets it would open. */
function makeClient(token: string | null = 'session-token') {
  const logs: string[] = [];
  let opened = 0;
  const client = createSocketClient({
    getUrl: () => 'http://127.0.0.1:9',
    getToken: () => token,
    log: (m) => logs.push(m),
    connect: (() => {
      opened += 1;
      throw new Error('no socket expected');
    }) as never,
  });
  return { client, logs, opened: () => opened };
}

function botState(hwid: string, overrides: Partial<BotState> = {}): BotState {
  return {
    hwid,
    owner: { id: 'u1', username: 'alice' },
    online: true,
    version: '1.0.0',
    connectedAt: new Date().toISOString(),
    lastSeenAt: new Date().toISOString(),
    accounts: [
      {
        name: 'acc1',
        character: 'Perso',
        level: 10,
        status: 'gathering',
        position: { mapId: 1, x: 1, y: 2 },
        routeId: null,
        stats: { gathered: 1, treasures: 0, kamas: 5, xp: 10 },
        message: null,
      },
    ],
    ...overrides,
  };
}

describe('socket options', () => {
  it('uses docs/specification.md §7 values, websocket only, no upgrade, path /socket.io', () => {
    const options = socketOptions({ hwid: 'HWID-0001' });
    expect(options).toMatchObject({
      path: '/socket.io',
      transports: ['websocket'],
      upgrade: false,
      reconnection: true,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      timeout: 20000,
      query: { hwid: 'HWID-0001' },
    });
    expect([
      SOCKET_RECONNECTION_DELAY_MS,
      SOCKET_RECONNECTION_DELAY_MAX_MS,
      SOCKET_RANDOMIZATION_FACTOR,
      SOCKET_TIMEOUT_MS,
    ]).toEqual([1000, 5000, 0.5, 20000]);
  });
});

describe('refusals before any socket', () => {
  it('logs "HWID requis" and opens nothing without a hwid', () => {
    const { client, logs, opened } = makeClient();
    expect(client.connectToHwid('', { onUpdate: () => undefined })).toBeUndefined();
    expect(client.connectToHwid(null, { onUpdate: () => undefined })).toBeUndefined();
    expect(logs).toEqual([HWID_REQUIRED, HWID_REQUIRED]);
    expect(opened()).toBe(0);
    expect(client.openHwids()).toEqual([]);
  });

  it('logs "Token manquant" and opens nothing without a token', () => {
    const { client, logs, opened } = makeClient(null);
    expect(client.connectToHwid('HWID-0001', { onUpdate: () => undefined })).toBeUndefined();
    expect(client.connectAsAdmin({ onSnapshot: () => undefined, onUpdate: () => undefined })).toBeUndefined();
    expect(logs).toEqual([TOKEN_MISSING, TOKEN_MISSING]);
    expect(opened()).toBe(0);
    expect(client.hasAdminSocket()).toBe(false);
  });
});

describe('fleet and event helpers', () => {
  it('never mutates the previous fleet and names what changed', () => {
    const first = applySnapshot([
      botState('A-000001'),
      botState('B-000001'),
      botState('Z-000001', { online: false }),
    ]);
    expect(first.bots.size).toBe(2);
    const second = applyBatch(first, [botState('C-000001'), botState('A-000001', { online: false })]);
    expect(first.bots.size).toBe(2);
    expect([...second.bots.keys()].sort()).toEqual(['B-000001', 'C-000001']);
    expect(second.changed).toEqual(['C-000001']);
    expect(second.removed).toEqual(['A-000001']);
    const third = applyDisconnect(second, 'B-000001');
    expect(third.removed).toEqual(['B-000001']);
    expect(applyDisconnect(third, 'nope')).toBe(third);
  });

  it('diffBotStates reports connection, status and account changes', () => {
    const a = botState('A-000001');
    expect(diffBotStates(undefined, a).map((e) => e.kind)).toEqual(['online']);
    const b = botState('A-000001', { accounts: [{ ...a.accounts[0]!, status: 'banking' }] });
    expect(diffBotStates(a, b).map((e) => [e.kind, e.status])).toEqual([['status', 'banking']]);
    expect(diffBotStates(b, { ...b, accounts: [] }).map((e) => e.text)).toEqual(['Compte retiré']);
    expect(diffBotStates(b, b)).toEqual([]);
  });

  it('diffBotStates dates "Bot connecté" when the bot connected, not when the page opened', () => {
    const connectedAt = '2026-01-02T03:04:05.000Z';
    const opened = new Date('2026-01-02T09:00:00.000Z');
    const online = botState('A-000001', { connectedAt });
    expect(diffBotStates(undefined, online, opened)[0]).toMatchObject({ kind: 'online', at: connectedAt });
    // Back online: the new session's time too; the other changes keep the time they are seen.
    const offline = { ...online, online: false };
    const again = { ...online, connectedAt: '2026-01-02T08:59:00.000Z' };
    expect(diffBotStates(offline, again, opened)[0]?.at).toBe('2026-01-02T08:59:00.000Z');
    expect(diffBotStates(online, offline, opened)[0]?.at).toBe(opened.toISOString());
  });

  it('viewport feed: starts empty, drops what the map stops showing, sums the nodes’ latest counts', () => {
    const full = applySnapshot([botState('A-000001'), botState('B-000001')], 7);
    const fleet = startViewportFeed(full);
    expect([fleet.feed, fleet.bots.size, fleet.onlineCount, fleet.removed]).toEqual([
      'viewport',
      0,
      7,
      ['A-000001', 'B-000001'],
    ]);

    // botState's account stands at (1, 2): a viewport east of it drops it.
    const withBots = applyBatch(fleet, [botState('A-000001')]);
    const elsewhere = applyViewport(withBots, { ...FLEET_TOTALS_VIEWPORT, minX: 10, cellSize: null });
    expect([elsewhere.bots.size, elsewhere.removed]).toEqual([0, ['A-000001']]);
    expect(applyViewport(withBots, { ...FLEET_TOTALS_VIEWPORT, cellSize: null }).bots.size).toBe(1);
    expect(applyViewport(withBots, FLEET_TOTALS_VIEWPORT).bots.size).toBe(0);
    // A state sent for the viewport before arrives late: the fleet keeps only what it now shows.
    expect(applyBatch(elsewhere, [botState('A-000001')]).bots.size).toBe(0);
    expect(applyBatch(applyViewport(withBots, FLEET_TOTALS_VIEWPORT), [botState('B-000001')]).bots.size).toBe(
      0,
    );

    const cellOf = (counts: number[]) => [0, 0, ...counts];
    let counted = applyCells(
      fleet,
      { node: 'n1', cellSize: 4096, cells: cellOf([1, 2, 0, 0, 0, 0, 0, 0]) },
      0,
    );
    counted = applyCells(
      counted,
      { node: 'n2', cellSize: 4096, cells: cellOf([0, 0, 3, 0, 0, 0, 0, 0]) },
      1_000,
    );
    counted = applyCells(
      counted,
      { node: 'n1', cellSize: 4096, cells: cellOf([1, 0, 0, 0, 0, 0, 0, 0]) },
      2_000,
    );
    expect(countFleetAccounts(counted)).toBe(4);
    // n2 fell silent (a killed node): its counts go.
    counted = applyCells(counted, { node: 'n1', cellSize: 4096, cells: [] }, 5_000);
    expect([...counted.cells.keys()]).toEqual(['n1']);
    expect(countFleetAccounts(counted)).toBe(0);
    expect(applyViewport(counted, { ...FLEET_TOTALS_VIEWPORT, cellSize: null }).cells.size).toBe(0);
  });

  it('viewport feed, zoomed in: keeps the counts of a node capping the area until it withdraws them', () => {
    const zoomedIn = { ...FLEET_TOTALS_VIEWPORT, cellSize: null };
    const fleet = applyBatch(applyViewport(startViewportFeed(emptyFleet), zoomedIn), [botState('A-000001')]);
    // The whole world zoomed in: a capped node counts in cells of 2000 / 64 → 32 map cells.
    expect(cellSizeOf(zoomedIn)).toBe(32);
    const capped = applyCells(fleet, { node: 'n2', cellSize: 32, cells: [0, 0, 0, 0, 5, 0, 0, 0, 0, 0] });
    expect([countCellAccounts(capped), capped.bots.size]).toEqual([5, 1]);
    // Counts in other cells answer an earlier, zoomed-out viewport: ignored.
    expect(applyCells(fleet, { node: 'n3', cellSize: 4096, cells: [0, 0, 0, 0, 5, 0, 0, 0, 0, 0] })).toBe(
      fleet,
    );
    // The node sends its bots one by one again: no cells from it, its counts go.
    const uncapped = applyCells(capped, { node: 'n2', cellSize: 32, cells: [] });
    expect([uncapped.cells.size, countCellAccounts(uncapped)]).toEqual([0, 0]);
  });
});
