import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../../../test/harness.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { connectOwnerBot, createBotOwner, type TestSocket, waitFor } from '../../../test/helpers/realtime.ts';

/**
 * A bot session lives as long as its agent renews its lease, and ends 24 h after the last renewal
 * (docs/protocol.md, "The bot session"): the server's clock is a `ManualClock` moved hours at once.
 */
const HOUR_MS = 3_600_000;
const clock = new ManualClock();
let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ clock, realtime: { expirySweepMs: 100 } });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

async function connectedAgent() {
  const owner = await createBotOwner(server);
  const { socket, ack } = await connectOwnerBot(server, owner);
  sockets.push(socket);
  expect(ack).toEqual({ ok: true });
  return { owner, socket };
}

describe('a renewal extends the bot session', () => {
  it('keeps a renewing agent past 24 h and ends the session 24 h after its last renewal', async () => {
    const renewing = await connectedAgent();
    const silent = await connectedAgent();
    const call = apiClient(server);
    const renew = () =>
      call<{ lease: string; expiresAt: string }>('POST', '/bot/lease', {
        token: renewing.owner.botToken,
        hwid: renewing.owner.hwid,
      });

    clock.moveBy(20 * HOUR_MS); // past the lease's 80 %: the agent renews
    const renewed = await renew();
    expect(renewed.status).toBe(200);
    expect(renewed.body.expiresAt).toBe(new Date(clock.now() + 24 * HOUR_MS).toISOString());

    clock.moveBy(4 * HOUR_MS + 60_000); // 24 h 1 min after both sessions opened
    const ended = await waitFor<{ code: string }>(silent.socket, 'auth_error', () => true, 8_000);
    expect(ended.code).toBe('BOT_SESSION_INVALID');
    // The same sweep saw both sockets: the renewed one stays, and its session still renews.
    expect(renewing.socket.connected).toBe(true);
    expect((await renew()).status).toBe(200);

    clock.moveBy(24 * HOUR_MS + 60_000); // 24 h without a renewal
    const expired = await waitFor<{ code: string }>(renewing.socket, 'auth_error', () => true, 8_000);
    expect(expired.code).toBe('BOT_SESSION_INVALID');
    expect((await renew()).status).toBe(401);
  });
});
