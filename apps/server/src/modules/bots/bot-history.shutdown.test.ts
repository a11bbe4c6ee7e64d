import type { BotHistoryPoint } from '@bot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { account, connectOwnerBot, createBotOwner, type TestSocket } from '../../../test/helpers/realtime.ts';
import { botActivityMinutes } from './bots.table.ts';

/**
 * Bot history is buffered per minute and written in batches; a node that shuts down writes what it
 * still holds, so a restart (a deployment) loses nothing and counts nothing twice.
 */
let server: TestServer;
const sockets: TestSocket[] = [];
/** One second before a minute turns, and it stays there: every report falls in that one minute. */
const clock = new ManualClock(Math.ceil(Date.now() / 60_000) * 60_000 - 1_000);

beforeAll(async () => {
  // The embedded database in the data folder, kept across restarts; no periodic write meanwhile,
  // and a bot may report faster than an agent does.
  server = await startTestServer({
    clock,
    openDatabaseFromConfig: true,
    realtime: { historyFlushMs: 3_600_000, botUpdatesPerSecond: 50 },
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

const miner = (gathered: number) =>
  account('Miner', { stats: { gathered, treasures: 0, kamas: 10 * gathered, xp: 100 * gathered } });
const hunter = (treasures: number) =>
  account('Hunter', { stats: { gathered: 0, treasures, kamas: 0, xp: 0 } });

describe('bot history across a restart', () => {
  it('is written at shutdown, one row per account and minute, and added to after the restart', async () => {
    const owner = await createBotOwner(server, { accounts: ['Miner', 'Hunter'] });
    const rowsOf = () =>
      server.ctx.db.select().from(botActivityMinutes).where(eq(botActivityMinutes.hwid, owner.hwid));
    const gathered = async () => {
      const answer = await apiClient(server)<{ data: { history: BotHistoryPoint[] } }>(
        'GET',
        '/me/bot',
        undefined,
        owner.token,
      );
      return answer.body.data.history.reduce((total, point) => total + point.gathered, 0);
    };
    const first = (await connectOwnerBot(server, owner)).socket;
    sockets.push(first);
    for (let i = 0; i <= 5; i += 1) first.emit('bot_update', { accounts: [miner(10 * i), hunter(i)] });
    await vi.waitFor(async () => expect(await gathered()).toBe(50)); // every report arrived (buffered)
    expect(await rowsOf()).toHaveLength(0);

    await server.restart();
    const rows = await rowsOf();
    expect(rows).toHaveLength(2); // one row per account and minute
    const minerRows = rows.filter((row) => row.account === 'Miner');
    expect(minerRows.reduce((t, r) => t + r.gathered, 0)).toBe(50);
    expect(minerRows.reduce((t, r) => t + r.kamas, 0)).toBe(500);
    expect(minerRows.reduce((t, r) => t + r.xp, 0)).toBe(5000);
    expect(rows.filter((r) => r.account === 'Hunter').reduce((t, r) => t + r.treasures, 0)).toBe(5);

    // Back after the restart: its first report is the new baseline, the next one adds to the
    // written minutes, and the answer merges what is written with what is buffered.
    const again = (await connectOwnerBot(server, owner)).socket;
    sockets.push(again);
    again.emit('bot_update', { accounts: [miner(100)] });
    again.emit('bot_update', { accounts: [miner(110)] });
    await vi.waitFor(async () => expect(await gathered()).toBe(60));
    await server.restart();
    const written = (await rowsOf()).filter((row) => row.account === 'Miner');
    expect(written.map((row) => row.gathered)).toEqual([60]);
  });
});
