import type { BotHistoryUpdate } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import {
  account,
  collect,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  type TestSocket,
} from '../../../test/helpers/realtime.ts';

/**
 * The owner's chart follows the bot without polling: its page socket gets the bot's minutes not
 * written yet as the bot reports (docs/decisions/013-commands-and-history-paths.md).
 */
let server: TestServer;
const sockets: TestSocket[] = [];
const MINUTE_MS = 60_000;
/** One second before a minute turns; the test moves it when it means that minute to end. */
const clock = new ManualClock(Math.ceil(Date.now() / MINUTE_MS) * MINUTE_MS - 1_000);

beforeAll(async () => {
  // No periodic write while the test runs: every minute stays unwritten, so each push holds them all.
  server = await startTestServer({
    clock,
    realtime: { historyFlushMs: 3_600_000, botUpdatesPerSecond: 50, adminFlushMs: 50 },
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

const miner = (gathered: number) =>
  account('Miner', { stats: { gathered, treasures: 0, kamas: 10 * gathered, xp: 0 } });

it('pushes the minutes not written yet to the owner’s page socket as the bot reports, a new minute once it starts', async () => {
  const owner = await createBotOwner(server, { accounts: ['Miner'] });
  const page = await connectAndAuthenticate(server, { type: 'client', token: owner.token, hwid: owner.hwid });
  sockets.push(page.socket);
  const pushed = collect<BotHistoryUpdate>(page.socket, 'bot_history');
  const bot = await connectOwnerBot(server, owner);
  sockets.push(bot.socket);
  const firstMinute = new Date(Math.floor(clock.now() / MINUTE_MS) * MINUTE_MS).toISOString();
  for (const gathered of [0, 10, 25]) bot.socket.emit('bot_update', { accounts: [miner(gathered)] });

  const minute = { account: 'Miner', treasures: 0, xp: 0 };
  await vi.waitFor(() =>
    expect(pushed.at(-1)).toEqual({
      hwid: owner.hwid,
      points: [{ ...minute, minute: firstMinute, gathered: 25, kamas: 250 }],
    }),
  );

  // The minute ends: the next report opens the next one, pushed beside the first (still unwritten).
  clock.moveBy(1_000);
  const nextMinute = new Date(clock.now()).toISOString();
  bot.socket.emit('bot_update', { accounts: [miner(30)] });
  await vi.waitFor(() =>
    expect(pushed.at(-1)?.points).toEqual([
      { ...minute, minute: firstMinute, gathered: 25, kamas: 250 },
      { ...minute, minute: nextMinute, gathered: 5, kamas: 50 },
    ]),
  );
});
