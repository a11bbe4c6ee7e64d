import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { createBotOwner } from '../../../test/helpers/realtime.ts';
import { lastConnectionEvent, writeBotEvent } from './bot-events.ts';

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
