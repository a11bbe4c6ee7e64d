import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BotState } from '@bot/contracts';
import { writeTemplateDataDir } from '../../apps/server/test/database.ts';
import {
  apiClient,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../apps/server/test/harness.ts';

/**
 * What the kit's scenarios act with (apps/bot-agent/README.md, "Conformance kit"): a real server it
 * started (its own database in a temporary folder, so it can restart), a staff member, fresh bot
 * owners, and the agent under test started as a process with the environment of the contract.
 * Everything the kit concludes it reads through the server: what the owner sees, command states,
 * the journal, and the server's own request log.
 */
export interface ConformanceBench {
  readonly server: TestServer;
  readonly staff: TestUser;
  call: ReturnType<typeof apiClient>;
  /** The server's answered requests (`POST /api/bot/lease 200`), in order, since it started. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/** A bot owner of the kit: both bot permissions, one whitelisted game account, its access key. */
export interface KitOwner extends TestUser {
  hwid: string;
  accessKey: string;
  account: string;
}

export interface RunningAgent {
  owner: KitOwner;
  /** Everything the agent printed (stdout and stderr), for the report of a failed scenario. */
  output(): string;
  /** Resolves with the exit code once the agent ended (null: killed by a signal). */
  exited: Promise<number | null>;
  hasExited(): boolean;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it ended. */
  stop(): Promise<void>;
}

export async function startConformanceBench(): Promise<ConformanceBench> {
  const requests: string[] = [];
  // The server opens the embedded database of its data folder, so that it can restart on it; the
  // folder starts from the tests' migrated template (11 s to a listening server instead of 13 s).
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bot-conformance-'));
  await writeTemplateDataDir(dataDir);
  const server = await startTestServer({
    openDatabaseFromConfig: true,
    env: { DATA_DIR: dataDir },
    onLogLine: (line) => {
      if (!line.includes('"requête terminée"')) return;
      const { method, url, statusCode } = JSON.parse(line) as {
        method: string;
        url: string;
        statusCode: number;
      };
      requests.push(`${method} ${url} ${statusCode}`);
    },
  });
  const staff = await server.createUser({ isAdministrator: true });
  const close = async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { server, staff, call: apiClient(server), requests, close };
}

export async function createKitOwner(bench: ConformanceBench): Promise<KitOwner> {
  const owner = await bench.server.createUser({ permissions: ['can_useGathering', 'can_useTreasure'] });
  const account = `conf-${randomUUID().slice(-8)}`;
  const { username } = owner.user;
  const listed = await bench.call('POST', '/admin/whitelist', { username, name: account }, bench.staff.token);
  if (listed.status !== 201) throw new Error(`liste blanche refusée : ${JSON.stringify(listed.body)}`);
  const key = await bench.call<{ data: { accessKey: string } }>('GET', '/me/bot-key', undefined, owner.token);
  const hwid = `CONF-${randomUUID().replaceAll('-', '').slice(-20)}`;
  return { ...owner, hwid, accessKey: key.body.data.accessKey, account };
}

/**
 * Starts the agent's command line (through `sh -c`) with the contract's environment: the platform's
 * URL, the owner's access key, a fresh hwid and the root the agent pins.
 */
export function startAgent(
  command: string,
  owner: KitOwner,
  platform: { url: string; trustRoot: object },
): RunningAgent {
  let output = '';
  let hasExited = false;
  const child: ChildProcess = spawn('sh', ['-c', command], {
    env: {
      ...process.env,
      BOT_PLATFORM_URL: platform.url,
      BOT_ACCESS_KEY: owner.accessKey,
      BOT_HWID: owner.hwid,
      BOT_TRUST_ROOT: JSON.stringify(platform.trustRoot),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      hasExited = true;
      resolve(code);
    }),
  );
  // The agent's whole process group (sh and what it started), never anything else.
  const signal = (name: NodeJS.Signals) => {
    if (!hasExited && child.pid) process.kill(-child.pid, name);
  };
  return {
    owner,
    output: () => output,
    exited,
    hasExited: () => hasExited,
    async stop() {
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `check` until it answers a value (not undefined/false), or fails naming what it waited for. */
export async function waitUntil<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} : pas dans les ${timeoutMs / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The bot's state as its owner sees it (`GET /api/me/bot`), null when none. */
export async function ownerView(bench: ConformanceBench, owner: KitOwner): Promise<BotState | null> {
  const answer = await bench.call<{ data: { state: BotState | null } }>(
    'GET',
    '/me/bot',
    undefined,
    owner.token,
  );
  return answer.body.data?.state ?? null;
}

/** Resolves once the owner sees the bot online with its whitelisted account. */
export function ownerSeesOnline(bench: ConformanceBench, owner: KitOwner, timeoutMs = 15_000) {
  return waitUntil(
    async () => {
      const state = await ownerView(bench, owner);
      return state?.online && state.accounts.some((entry) => entry.name === owner.account)
        ? state
        : undefined;
    },
    'le propriétaire voit le bot en ligne avec son compte de jeu',
    timeoutMs,
  );
}
