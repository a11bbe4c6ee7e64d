/**
 * A bot fleet through the real path: demo-like users seeded in the test server's database, one bot
 * agent (the SDK of apps/bot-agent) per user over a real Socket.IO connection, each reporting its
 * simulated game accounts once per second. Used by `run.ts --feed socket`.
 */
import { type BotClient, createBotClient, SimulatedBot } from '@bot/bot-agent';
import { newId } from '../../apps/server/src/core/ids.ts';
import { hashPassword } from '../../apps/server/src/core/passwords.ts';
import { grantPermission } from '../../apps/server/src/modules/access/index.ts';
import { openBotSession } from '../../apps/server/src/modules/bots/index.ts';
import { updateFor } from '../../apps/server/src/modules/releases/index.ts';
import { getOrCreateBotKey, users } from '../../apps/server/src/modules/users/index.ts';
import { whitelistEntries } from '../../apps/server/src/modules/whitelist/index.ts';
import type { TestServer } from '../../apps/server/test/harness.ts';

export interface SocketFleet {
  bots: number;
  accounts: number;
  counters: { reports: number; connected: number; errors: number };
  stop(): Promise<void>;
}

/** Seeds the fleet's users (database only); `start()` then connects the agents and starts reporting. */
export async function prepareSocketFleet(
  server: TestServer,
  options: { bots: number; accountsPerBot: number; onProgress?: (text: string) => void },
): Promise<{ start(): Promise<SocketFleet> }> {
  const { ctx } = server;
  const passwordHash = await hashPassword('Bench-Map-Fleet-2026');
  const run = newId().slice(-6);
  const prepared: {
    hwid: string;
    accessKey: string;
    accounts: string[];
    session: { token: string; expiresAt: string };
  }[] = [];
  for (let index = 0; index < options.bots; index++) {
    const id = newId();
    const username = `fleet${run}${index}`;
    await ctx.db.insert(users).values({
      id,
      username,
      email: `${username}@bench.localhost`,
      passwordHash,
      activatedAt: new Date(),
    });
    for (const permission of ['can_useGathering', 'can_useTreasure'] as const) {
      await grantPermission(ctx, {
        id: newId(),
        userId: id,
        permission,
        expiresAt: null,
        source: 'manual',
      });
    }
    const accounts = Array.from({ length: options.accountsPerBot }, (_, n) => `${username}-p${n + 1}`);
    for (const name of accounts)
      await ctx.db.insert(whitelistEntries).values({ id: newId(), userId: id, name });
    const accessKey = await getOrCreateBotKey(ctx, id);
    const hwid = `FLEET-${run}-${String(index).padStart(6, '0')}`;
    const session = await openBotSession(ctx, { accessKey, hwid, version: '1.0.0', ip: null }, updateFor);
    prepared.push({
      hwid,
      accessKey,
      accounts,
      session: { token: session.token, expiresAt: session.expiresAt },
    });
    if ((index + 1) % 500 === 0) options.onProgress?.(`seeded ${index + 1}/${options.bots}`);
  }

  return { start: () => connectFleet(server, prepared, options) };
}

async function connectFleet(
  server: TestServer,
  prepared: {
    hwid: string;
    accessKey: string;
    accounts: string[];
    session: { token: string; expiresAt: string };
  }[],
  options: { accountsPerBot: number; onProgress?: (text: string) => void },
): Promise<SocketFleet> {
  const counters = { reports: 0, connected: 0, errors: 0 };
  const agents: { client: BotClient; world: SimulatedBot }[] = [];
  for (let start = 0; start < prepared.length; start += 100) {
    const chunk = prepared.slice(start, start + 100);
    await Promise.all(
      chunk.map(async (bot) => {
        const client = createBotClient({
          serverUrl: server.url,
          trustRoot: server.trustRoot,
          accessKey: bot.accessKey,
          hwid: bot.hwid,
          version: '1.0.0',
          session: bot.session,
        });
        client.on('error', () => {
          counters.errors += 1;
        });
        try {
          await client.connect();
          counters.connected += 1;
          const world = new SimulatedBot(bot.hwid, bot.accounts);
          client.report(world.tick());
          agents.push({ client, world });
        } catch {
          counters.errors += 1;
        }
      }),
    );
    options.onProgress?.(`connected ${counters.connected}/${prepared.length}`);
  }

  // Every bot reports once per second, spread over 4 slices.
  let slice = 0;
  const timer = setInterval(() => {
    for (let index = slice; index < agents.length; index += 4) {
      const agent = agents[index] as (typeof agents)[number];
      if (agent.client.report(agent.world.tick())) counters.reports += 1;
    }
    slice = (slice + 1) % 4;
  }, 250);

  return {
    bots: agents.length,
    accounts: agents.length * options.accountsPerBot,
    counters,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(agents.map((agent) => agent.client.stop().catch(() => undefined)));
    },
  };
}
