import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { account, createBotOwner } from '../../../test/helpers/realtime.ts';
import { BotEventRecorder, lastConnectionEvent, writeBotEvent } from './bot-events.ts';
import { botEvents } from './bots.table.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

it('takes the later of two connection events in the same millisecond (a bot that dropped at once is offline)', async () => {
  for (const [first, second] of [
    ['connected', 'disconnected'],
    ['disconnected', 'connected'],
    ['connected', 'disconnected'],
  ] as const) {
    const owner = await createBotOwner(server);
    const at = new Date();
    const event = { hwid: owner.hwid, userId: owner.user.id, at, detail: {} };
    await writeBotEvent(server.ctx, { ...event, kind: first });
    await writeBotEvent(server.ctx, { ...event, kind: second });
    const last = await lastConnectionEvent(server.ctx, { hwid: owner.hwid, userId: owner.user.id });
    expect(last).toEqual({ kind: second, at });
  }
});

it('a row the database refuses loses only itself, not the other bots’ events written with it', async () => {
  const [victim, other] = [await createBotOwner(server), await createBotOwner(server)];
  const recorder = new BotEventRecorder(server.ctx);
  const errorOf = (owner: typeof victim, message: string) => ({
    hwid: owner.hwid,
    userId: owner.user.id,
    at: Date.now(),
    before: [],
    after: [account(owner.accounts[0] as string, { status: 'error', message })],
  });
  recorder.statusChanges(errorOf(victim, 'panne ordinaire'));
  // A NUL character: PostgreSQL refuses it in jsonb (the socket refuses it before; a defence in depth).
  recorder.statusChanges(errorOf(other, 'poison \u0000 ici'));
  await recorder.settled();
  const kept = await server.ctx.db
    .select({ detail: botEvents.detail })
    .from(botEvents)
    .where(and(eq(botEvents.userId, victim.user.id), eq(botEvents.kind, 'error')));
  expect(kept).toEqual([{ detail: { account: victim.accounts[0], message: 'panne ordinaire' } }]);
});
