import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOCKET_EVENTS } from '@bot/contracts';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SAME_PRESS_MS, SHUTDOWN_GRACE_MS } from '../src/core/shutdown.ts';
import { PGLITE_EXTENSIONS, pgliteDir } from '../src/db/client.ts';
import { writeTemplateDataDir } from './database.ts';
import { freePort, startTestServer, TEST_MASTER_KEY } from './harness.ts';
import {
  account,
  connectAndAuthenticate,
  connectOwnerBot,
  createBotOwner,
  waitFor,
} from './helpers/realtime.ts';

/**
 * The drain of a real server process (docs/operations.md, "Signals and shutdown"): clients that keep
 * their connection, a bot that stops reading, a forced exit, SIGHUP, a parent that dies. Each test
 * starts the compiled server on a data folder copied from the migrated template.
 */
const rootDir = fileURLToPath(new URL('../../..', import.meta.url));
const node = path.join(rootDir, 'node_modules/.bin/node');
const compiledServer = path.join(rootDir, 'apps/server/dist/main.js');

/** The drain's limit: a clean drain must end well before it. */
const GRACE_MS = SHUTDOWN_GRACE_MS;

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A migrated embedded database, as the server's first start would leave it. */
async function migratedDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bot-drain-'));
  dirs.push(dir);
  await writeTemplateDataDir(dir);
  return dir;
}

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** The compiled server on `dataDir`, started by `wrap` (a parent process of the test's) when given. */
async function startServer(
  dataDir: string,
  wrap?: { command: string[]; env: Record<string, string> },
): Promise<Started> {
  const port = await freePort();
  let output = '';
  const [file, ...args] = [...(wrap?.command ?? []), node, compiledServer];
  const child = spawn(file as string, args, {
    cwd: rootDir,
    env: {
      ...process.env,
      LOG_LEVEL: 'debug',
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      MASTER_KEY: TEST_MASTER_KEY,
      ...wrap?.env,
    },
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = { child, port, output: () => output, exited };
  await waitForOutput(started, 'Plateforme prête');
  return started;
}

const waitForOutput = (started: Pick<Started, 'output'>, text: string, timeout = 60_000) =>
  vi.waitFor(
    () => {
      if (!started.output().includes(text))
        throw new Error(`pas encore « ${text} » :\n${started.output().slice(-2000)}`);
    },
    { timeout, interval: 50 },
  );

/** When the server logged the latest signal it received (its log line's `time`). */
const lastSignalTime = (output: string) =>
  Number([...output.matchAll(/"time":(\d+)[^\n]*"msg":"signal reçu/g)].at(-1)?.[1] ?? Date.now());
const serverPid = (started: Started) => Number(started.output().match(/"pid":(\d+)/)?.[1]);
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const isPortOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
    socket.once('error', () => resolve(false));
  });

/**
 * The embedded database's own record of how it stopped (`global/pg_control`, the cluster state at
 * byte 16): 1 once it was shut down, 6 while it is in use or after its process died with it open.
 */
async function wasShutDown(dataDir: string): Promise<boolean> {
  const control = await readFile(path.join(pgliteDir(dataDir), 'global', 'pg_control'));
  return control.readUInt32LE(16) === 1;
}

/** Nothing of the server left: no process, no port, no data-folder lock, the database shut down. */
async function expectNothingLeft(started: Started, dataDir: string, pid: number): Promise<void> {
  expect(isAlive(pid)).toBe(false);
  expect(await isPortOpen(started.port)).toBe(false);
  expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  expect(await wasShutDown(dataDir)).toBe(true);
}

/** A POST whose body arrives in two parts on `agent`'s connection: in flight until `finish`. */
function slowPost(port: number, agent: Agent) {
  const body = JSON.stringify({ username: 'personne' }); // refused (400) once complete
  let finish = () => {};
  const response = new Promise<{ status: number; connection?: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 5));
    finish = () => req.end(body.slice(5));
  });
  return { response, finish: () => finish() };
}

const arrivals = (started: Started) =>
  started.output().split('"url":"/api/auth/login","msg":"requête reçue"').length - 1;

describe('the drain ends clean', () => {
  it("keep-alive clients and a bot that stops reading: 20 requests in flight answered, each closing its connection, exit 0 at once, the bot's buffered report written, the database shut down", {
    timeout: 120_000,
  }, async () => {
    const dataDir = await migratedDataDir();
    // The bot's owner, access key and session are made on the same folder before the process starts.
    const seeding = await startTestServer({ env: { DATA_DIR: dataDir }, openDatabaseFromConfig: true });
    const owner = await createBotOwner(seeding);
    await seeding.close();

    const started = await startServer(dataDir);
    const pid = serverPid(started);
    const url = `http://127.0.0.1:${started.port}`;
    const { socket: bot, ack } = await connectOwnerBot({ url }, owner);
    const { socket: watcher } = await connectAndAuthenticate(
      { url },
      { type: 'client', token: owner.token, hwid: owner.hwid },
    );
    // As nginx's upstream keep-alive or a browser: connections kept open between requests.
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    try {
      expect(ack).toEqual({ ok: true });
      const name = owner.accounts[0]!;
      // The first report is the baseline, the second gathers 7: a minute buffered, not yet written.
      bot.emit(SOCKET_EVENTS.botUpdate, { accounts: [account(name)] });
      await waitFor(watcher, 'bot_update');
      bot.emit(SOCKET_EVENTS.botUpdate, {
        accounts: [account(name, { stats: { gathered: 7, treasures: 0, kamas: 0, xp: 0 } })],
      });
      await waitFor(watcher, 'bot_update', (state: { accounts: { stats: { gathered: number } }[] }) =>
        state.accounts.some((entry) => entry.stats.gathered === 7),
      );
      // A half-dead agent: its connection stays open but it reads nothing more (not even the close).
      const transport = bot.io.engine.transport as unknown as { ws: { _socket: { pause(): void } } };
      transport.ws._socket.pause();
      const posts = Array.from({ length: 20 }, () => slowPost(started.port, agent));
      await vi.waitFor(() => expect(arrivals(started)).toBe(20), { timeout: 10_000, interval: 20 });

      started.child.kill('SIGTERM');
      await waitForOutput(started, 'arrêt en cours');
      const signalled = performance.now();
      for (const post of posts) post.finish();
      const answers = await Promise.all(posts.map((post) => post.response));
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(400));
      expect(await started.exited).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(GRACE_MS / 2);
      expect(answers.map((answer) => answer.connection)).toEqual(Array(20).fill('close'));
      expect(started.output()).not.toContain('sortie forcée');
      await expectNothingLeft(started, dataDir, pid);
      const database = await PGlite.create(pgliteDir(dataDir), { extensions: PGLITE_EXTENSIONS });
      const { rows } = await database.query<{ gathered: number }>(
        'select gathered from bot_activity_minutes where hwid = $1 and account = $2',
        [owner.hwid, name],
      );
      await database.close();
      expect(rows).toEqual([{ gathered: 7 }]);
    } finally {
      agent.destroy();
      bot.disconnect();
      watcher.disconnect();
      started.child.kill('SIGKILL');
    }
  });
});

describe('how a drain starts and how it is cut short', () => {
  it('a third Ctrl-C abandons a drain held by a request in flight: exit 1, after a last save that closed the database', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await migratedDataDir();
    const started = await startServer(dataDir);
    const pid = serverPid(started);
    const agent = new Agent({ keepAlive: true });
    try {
      const post = slowPost(started.port, agent); // never finished: the drain waits for it
      post.response.catch(() => {}); // cut by the forced exit
      await vi.waitFor(() => expect(arrivals(started)).toBe(1), { timeout: 10_000, interval: 20 });
      const presses = () => started.output().split('"msg":"signal reçu').length - 1;
      for (let press = 1; press <= 3; press += 1) {
        started.child.kill('SIGINT');
        await vi.waitFor(() => expect(presses()).toBe(press), { timeout: 10_000, interval: 20 });
        // A press less than SAME_PRESS_MS after the previous one counts as the same (decision 602):
        // the next one waits until the server's own record of this press is older than that.
        const pressedAt = lastSignalTime(started.output());
        await vi.waitFor(() => expect(Date.now() - pressedAt).toBeGreaterThan(SAME_PRESS_MS), {
          timeout: 5_000,
          interval: 20,
        });
      }
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain(
        'arrêt abandonné : sortie forcée (code 1) après une dernière sauvegarde',
      );
      expect(started.output()).toContain('dernière sauvegarde faite : historique écrit, base fermée');
      await expectNothingLeft(started, dataDir, pid);
    } finally {
      agent.destroy();
      started.child.kill('SIGKILL');
    }
  });

  it('SIGHUP (the terminal closed) drains and says why; an answer that never ends is cut at 7 s, and the exit is 0', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await migratedDataDir();
    const started = await startServer(dataDir);
    const pid = serverPid(started);
    const agent = new Agent({ keepAlive: true });
    try {
      const post = slowPost(started.port, agent); // never finished
      const cut = post.response.then(
        () => 'answered',
        () => 'cut',
      );
      await vi.waitFor(() => expect(arrivals(started)).toBe(1), { timeout: 10_000, interval: 20 });
      started.child.kill('SIGHUP');
      await waitForOutput(
        started,
        'signal reçu (SIGHUP : terminal fermé ou session terminée) : arrêt en cours',
      );
      expect(await started.exited).toBe(0);
      expect(await cut).toBe('cut');
      expect(started.output()).toContain(
        'connexions encore ouvertes 7 s après le début de l’arrêt : coupées',
      );
      expect(started.output()).toContain('arrêt terminé');
      expect(started.output()).not.toContain('sortie forcée');
      await expectNothingLeft(started, dataDir, pid);
    } finally {
      agent.destroy();
      started.child.kill('SIGKILL');
    }
  });

  it('a server started by npm drains when npm dies: nothing holds the port or the data folder', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await migratedDataDir();
    // The server as `npm start` runs it: a child of its parent, with npm's environment.
    const started = await startServer(dataDir, {
      command: ['sh', '-c', '"$0" "$1" & wait'],
      env: { npm_lifecycle_event: 'start' },
    });
    const pid = serverPid(started);
    try {
      started.child.kill('SIGKILL'); // the parent dies at once: the server is handed to another
      await started.exited;
      await waitForOutput(started, 'processus parent (npm) disparu : arrêt en cours', 10_000);
      await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: GRACE_MS, interval: 50 });
      expect(started.output()).toContain('arrêt terminé');
      await expectNothingLeft(started, dataDir, pid);
    } finally {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('a closed terminal: a server writing to a terminal that goes away drains and leaves nothing', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await migratedDataDir();
    // A real pseudo-terminal (util-linux's `script`): the server's output goes to it, as in a terminal
    // window. Closing it used to hang the server for good: every write then fails (EIO) and the
    // log's flush retried forever, holding the database and refusing SIGTERM.
    const started = await startServer(dataDir, {
      command: ['sh', '-c', 'exec script -qfec "$0 $1" /dev/null'],
      env: {},
    });
    const pid = serverPid(started);
    try {
      started.child.kill('SIGKILL'); // the terminal window closes: SIGHUP, and no more output
      await started.exited;
      await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: GRACE_MS + 5_000, interval: 50 });
      await expectNothingLeft(started, dataDir, pid);
    } finally {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
