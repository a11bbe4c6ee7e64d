import type { BotTimeline, SocketAck } from '@bot/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';
import { account, connectAndAuthenticate, createBotOwner, type TestSocket } from '../helpers/realtime.ts';

/**
 * Attack 2 (acknowledgements, writing into others' data): a malicious agent reports an account in
 * `error` whose message carries a NUL character (U+0000, refused by PostgreSQL in text and jsonb).
 * The timeline's events of every bot are written together, a statement per quarter second: the
 * attacker's line must not make another customer's events of that moment vanish.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  call = apiClient(server);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

async function agentOf(owner: Awaited<ReturnType<typeof createBotOwner>>): Promise<TestSocket> {
  const { socket, ack } = await connectAndAuthenticate(server, {
    type: 'bot',
    token: owner.botToken,
    hwid: owner.hwid,
  });
  sockets.push(socket);
  expect(ack).toEqual({ ok: true });
  return socket;
}

const errorsOf = async (owner: { token: string }) =>
  (
    await call<{ data: BotTimeline }>('GET', '/me/bot/timeline', undefined, owner.token)
  ).body.data.entries.filter((entry) => entry.kind === 'error');

it('another customer’s timeline event written in the same moment is kept', { timeout: 20_000 }, async () => {
  const victim = await createBotOwner(server);
  const attacker = await createBotOwner(server);
  const victimSocket = await agentOf(victim);
  const attackerSocket = await agentOf(attacker);
  const report = (socket: TestSocket, name: string, message: string): Promise<SocketAck> =>
    socket
      .timeout(5_000)
      .emitWithAck('bot_update', { accounts: [account(name, { status: 'error', message })] });

  const [victimAnswer, attackerAnswer] = await Promise.all([
    report(victimSocket, victim.accounts[0] as string, 'panne ordinaire'),
    report(attackerSocket, attacker.accounts[0] as string, 'poison \u0000 ici'),
  ]);
  expect(victimAnswer).toEqual({ ok: true });
  // The attacker's report may be refused (naming the field) or kept cleaned: either, not a crash.
  expect(attackerSocket.connected).toBe(true);
  await vi.waitFor(
    async () => expect(await errorsOf(victim), JSON.stringify(attackerAnswer)).toHaveLength(1),
    {
      timeout: 5_000,
    },
  );
});
