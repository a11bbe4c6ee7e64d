import { type BotClient, createBotClient, type RawHwidComponents } from '@bot/bot-agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestServer, type TestServer } from '../harness.ts';
import { account, connectAndAuthenticate, newHwid, type TestSocket, whitelist } from '../helpers/realtime.ts';

/**
 * Attack family 4: the next owner of a PC. Customer A binds a PC (hwid and parts) with the real
 * SDK, its bot reports an account, runs a command, writes its journal, makes timeline events; the PC
 * is unbound (by A, or by staff); customer B binds the same PC. Nothing B can read may carry A's
 * traces: the journal, the timeline, the commands, the bot, the sockets.
 */
let server: TestServer;
let call: ReturnType<typeof apiClient>;
const clients: BotClient[] = [];
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { botSession: { max: 10_000, windowMs: 60_000 } } });
  call = apiClient(server);
});
afterAll(async () => {
  for (const client of clients) await client.stop();
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

async function customer(accountName: string) {
  const owner = await server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] });
  await whitelist(server, owner.user.id, [accountName]);
  const key = await call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  return { ...owner, accessKey: key.body.data.accessKey };
}

function agent(owner: { accessKey: string }, pc: { hwid: string; parts: RawHwidComponents }) {
  const client = createBotClient({
    serverUrl: server.url,
    accessKey: owner.accessKey,
    hwid: pc.hwid,
    components: pc.parts,
    version: '1.0.0',
    trustRoot: server.trustRoot,
  });
  client.on('error', () => {});
  clients.push(client);
  return client;
}

const READS = [
  '/me/bot',
  '/me/bot/timeline',
  '/me/bot/commands',
  '/me/bot/log',
  '/me/bot/routes',
  '/me/hwid-resets',
  '/me/notifications',
];

describe('the next owner of a PC', () => {
  for (const unbind of ['the customer', 'staff'] as const) {
    it(`after an unbind by ${unbind}, reads nothing of the previous owner (HTTP and sockets)`, {
      timeout: 60_000,
    }, async () => {
      const admin = await server.createUser({ isAdministrator: true });
      const tag = newHwid().slice(-8);
      const secretAccount = `prevacc-${tag}`;
      const secretLine = `ligne-privee-de-A-${tag}`;
      const a = await customer(secretAccount);
      const pc = {
        hwid: newHwid(),
        parts: {
          machine: `m-${tag}`,
          disk: `d-${tag}`,
          board: `b-${tag}`,
          nic: `02:00:${tag}`,
          cpu: `c-${tag}`,
        },
      };
      const agentA = agent(a, pc);
      let paused = 0;
      agentA.onCommand('pause', async () => {
        paused += 1;
        return { ok: true };
      });
      await agentA.connect();
      agentA.report({ accounts: [account(secretAccount, { message: `message-${tag}` })] });
      const journal = await connectAndAuthenticate(server, { type: 'log', token: a.token, hwid: pc.hwid });
      sockets.push(journal.socket);
      await vi.waitFor(() => expect(agentA.log.isStreaming).toBe(true));
      agentA.log.info(secretLine);
      await vi.waitFor(async () => {
        const log = await call('GET', '/me/bot/log', undefined, a.token);
        expect(JSON.stringify(log.body)).toContain(secretLine);
      });
      const command = await call<{ data: { id: string } }>(
        'POST',
        '/me/bot/commands',
        { kind: 'pause' },
        a.token,
      );
      expect(command.status).toBeLessThan(300);
      await vi.waitFor(() => expect(paused).toBe(1));
      const commandId = command.body.data.id;
      // A's bot goes offline; A queues another command for it, still pending at the unbind.
      await agentA.stop();
      const pending = await call<{ data: { id: string } }>(
        'POST',
        '/me/bot/commands',
        { kind: 'restart' },
        a.token,
      );
      expect(pending.status).toBeLessThan(300);
      const pendingId = pending.status < 300 ? pending.body.data.id : 'none';

      const released =
        unbind === 'the customer'
          ? await call('DELETE', '/me/hwid', undefined, a.token)
          : await call('DELETE', `/admin/users/${a.user.id}/hwid`, undefined, admin.token);
      expect(released.status).toBe(200);

      const b = await customer(`nextacc-${tag}`);
      const agentB = agent(b, pc);
      const commandsToB: unknown[] = [];
      for (const kind of ['pause', 'restart'] as const)
        agentB.onCommand(kind, async () => {
          commandsToB.push(kind);
          return { ok: true };
        });
      await agentB.connect();
      agentB.report({ accounts: [account(`nextacc-${tag}`)] });

      // B's watch socket on its bot, and the journal socket, see only B's own state.
      const seen: string[] = [];
      const watch = await connectAndAuthenticate(server, { type: 'log', token: b.token, hwid: pc.hwid });
      sockets.push(watch.socket);
      watch.socket.onAny((event, ...args) => seen.push(`${event} ${JSON.stringify(args)}`));
      await vi.waitFor(() => expect(agentB.log.isStreaming).toBe(true));
      agentB.log.info(`ligne de B ${tag}`);
      await vi.waitFor(() => expect(seen.join('\n')).toContain(`ligne de B ${tag}`));

      const answers: string[] = [];
      for (const route of READS) {
        const answer = await call('GET', route, undefined, b.token);
        answers.push(`${route} ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      const everything = [...answers, ...seen, JSON.stringify(commandsToB)].join('\n');
      for (const trace of [
        secretLine,
        secretAccount,
        `message-${tag}`,
        a.user.id,
        a.user.username,
        commandId,
        pendingId,
      ])
        expect(everything, trace).not.toContain(trace);
      expect
        .soft(commandsToB, 'a command the previous owner queued reached the next owner’s bot')
        .toEqual([]);

      // The previous owner, the other way round: nothing of B's bot through A's account.
      const aWatch = await connectAndAuthenticate(server, { type: 'log', token: a.token, hwid: pc.hwid });
      sockets.push(aWatch.socket);
      expect(aWatch.ack).not.toEqual({ ok: true });
      const aReads: string[] = [];
      for (const route of READS)
        aReads.push(JSON.stringify((await call('GET', route, undefined, a.token)).body));
      expect(aReads.join('\n')).not.toContain(`nextacc-${tag}`);
      expect(aReads.join('\n')).not.toContain(`ligne de B ${tag}`);
    });
  }
});
