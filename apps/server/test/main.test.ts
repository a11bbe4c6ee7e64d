import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { get, request } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RELEASE_PART_BYTES } from '@bot/contracts';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort, TEST_PASSWORD } from './harness.ts';
import { startPostgresServer } from './postgres-server.ts';

/** The real start-up path: `npm start` from the repository root, or the compiled server itself. */
const rootDir = fileURLToPath(new URL('../../..', import.meta.url));
const node = path.join(rootDir, 'node_modules/.bin/node');
const compiledServer = path.join(rootDir, 'apps/server/dist/main.js');

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) {
    await rm(dir, { recursive: true, force: true });
    await rm(`${dir}.master-key`, { force: true }); // the embedded default, beside the data folder
  }
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bot-main-'));
  dirs.push(dir);
  return dir;
}
/**
 * A port free right now, from the system: a random pick could collide with a port the suite's own
 * connections hold (one did in CI: "port 32796 already used").
 */
const availablePort = async () => String(await freePort());

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `detached`: the child leads a process group of its own, as a terminal's foreground job does
 * (Ctrl-C signals the whole group: npm and the server).
 */
function spawnServer(
  how: 'npm start' | 'compiled',
  env: Record<string, string>,
  options: { detached?: boolean } = {},
): Started {
  let output = '';
  const [command, args] = how === 'npm start' ? ['npm', ['start']] : [node, [compiledServer]];
  const child = spawn(command as string, args as string[], {
    cwd: rootDir,
    env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: '', ...env },
    detached: options.detached ?? false,
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const waitForOutput = (started: Started, text: string | RegExp) =>
  vi.waitFor(
    () => {
      const output = started.output();
      if (typeof text === 'string' ? !output.includes(text) : !text.test(output))
        throw new Error(`pas encore « ${text} » :\n${output.slice(-2000)}`);
    },
    { timeout: 60_000, interval: 50 },
  );

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const isPortOpen = (port: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
    socket.once('error', () => resolve(false));
  });

/** A login whose body arrives in two parts: the request is in flight until `finish` is called. */
function startSlowLogin(port: string, body: string) {
  const finishers: (() => void)[] = [];
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    finishers.push(() => req.end(body.slice(half)));
  });
  return {
    response,
    finish: () => {
      for (const finish of finishers) finish();
    },
  };
}

describe('npm start', () => {
  it('prints the first administrator, finishes in-flight requests on SIGTERM and leaves no process', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await tempDir();
    const port = await availablePort();
    // At debug level a request's arrival is logged: the SIGTERM below is sent while one is in flight.
    const first = spawnServer('npm start', { DATA_DIR: dataDir, PORT: port, LOG_LEVEL: 'debug' });
    await waitForOutput(first, 'Plateforme prête');
    const password = first.output().match(/mot de passe : (\S+)/)?.[1];
    expect(password).toMatch(/^[\w-]{24}$/);
    const serverPid = Number(first.output().match(/"pid":(\d+)/)?.[1]); // every log line names it
    expect(serverPid).toBeGreaterThan(0);

    // A second server on the same embedded database is refused at once, naming the folder.
    const intruder = spawnServer('compiled', { DATA_DIR: dataDir, PORT: await availablePort() });
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toContain(`Le dossier de données ${dataDir} est déjà utilisé`);

    // A login in flight when SIGTERM arrives is answered before the process exits.
    const login = startSlowLogin(port, JSON.stringify({ username: 'admin', password }));
    await waitForOutput(first, '"url":"/api/auth/login","msg":"requête reçue"');
    first.child.kill('SIGTERM');
    await waitForOutput(first, 'arrêt en cours');
    login.finish();
    const answer = await login.response;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).user.Policy.IsAdministrator).toBe(true);

    expect(await first.exited).toBe(0);
    expect(isAlive(serverPid)).toBe(false);
    expect(await isPortOpen(port)).toBe(false);

    // The next start keeps the administrator and prints no password.
    const second = spawnServer('npm start', { DATA_DIR: dataDir, PORT: port });
    await waitForOutput(second, 'Plateforme prête');
    expect(second.output()).not.toContain('mot de passe');
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('claims the port before migrating: a second start on a busy port stops at once', {
    timeout: 120_000,
  }, async () => {
    const port = await availablePort();
    const running = spawnServer('npm start', { DATA_DIR: await tempDir(), PORT: port });
    await waitForOutput(running, 'Plateforme prête');
    const secondDataDir = await tempDir();
    const second = spawnServer('npm start', { DATA_DIR: secondDataDir, PORT: port });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Le port ${port} de 127.0.0.1 est déjà utilisé`);
    expect(existsSync(path.join(secondDataDir, 'pglite'))).toBe(false); // nothing was migrated
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });
});

/** Signs in and publishes a build of `size` bytes, then asks the signed link a customer would get. */
async function publishedBuildLink(api: string, password: string, file: Buffer): Promise<string> {
  const json = async (method: string, route: string, body: unknown, token?: string) => {
    const response = await fetch(`${api}${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${route}`).toBeLessThan(300);
    return (await response.json()) as { token: string; data: { id: string; download: { url: string } } };
  };
  const { token } = await json('POST', '/auth/login', { username: 'admin', password });
  const draft = await json(
    'POST',
    '/admin/releases',
    { version: '1.0.0', channel: 'stable', fileName: 'bot-agent-1.0.0.zip', size: file.length },
    token,
  );
  for (let index = 0; index * RELEASE_PART_BYTES < file.length; index += 1) {
    const part = await fetch(`${api}/admin/releases/${draft.data.id}/parts/${index}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: file.subarray(index * RELEASE_PART_BYTES, (index + 1) * RELEASE_PART_BYTES),
    });
    expect(part.status).toBe(204);
  }
  const sha256 = createHash('sha256').update(file).digest('hex');
  const parts = Math.ceil(file.length / RELEASE_PART_BYTES);
  await json('POST', `/admin/releases/${draft.data.id}/publish`, { parts, sha256 }, token);
  // Offered to every PC at once (a staged rollout starts with a share, decision 910).
  await json('PUT', `/admin/releases/${draft.data.id}/rollout`, { percent: 100 }, token);
  return `${api}${(await json('GET', '/releases/latest', undefined, token)).data.download.url}`;
}

/** A download the client reads only when told to: the server's answer stays in flight until then. */
function startSlowDownload(url: string) {
  let resume: () => void = () => {};
  let started: () => void = () => {};
  const firstBytes = new Promise<void>((resolve) => (started = resolve));
  const body = new Promise<Buffer>((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = [];
      res.once('data', () => {
        res.pause();
        started();
      });
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
      resume = () => res.resume();
    }).on('error', reject);
  });
  return { firstBytes: Promise.race([firstBytes, body.then(() => {})]), body, resume: () => resume() };
}

describe('Ctrl-C in a terminal: the whole process group is signalled, npm relays it again', () => {
  it('two Ctrl-C during the drain: every request in flight is answered and the server exits 0', {
    timeout: 120_000,
  }, async () => {
    const port = await availablePort();
    const api = `http://127.0.0.1:${port}/api`;
    // At debug level a request's arrival is logged: the signals below are sent with requests in flight.
    const started = spawnServer(
      'npm start',
      { DATA_DIR: await tempDir(), PORT: port, LOG_LEVEL: 'debug' },
      { detached: true },
    );
    const group = started.child.pid!;
    try {
      await waitForOutput(started, 'Plateforme prête');
      const password = started.output().match(/mot de passe : (\S+)/)?.[1] ?? '';
      const serverPid = Number(started.output().match(/"pid":(\d+)/)?.[1]);
      // Larger than what the sockets buffer: the server cannot finish sending until the client reads.
      const file = randomBytes(3 * RELEASE_PART_BYTES);
      const download = startSlowDownload(await publishedBuildLink(api, password, file));
      await download.firstBytes;
      const logins = [
        startSlowLogin(port, JSON.stringify({ username: 'admin', password })),
        startSlowLogin(port, JSON.stringify({ username: 'admin', password: 'pas-le-bon' })),
      ];
      // Settled as they come: a reset request is a failed expectation below, not an unhandled error.
      const answers = Promise.allSettled([...logins.map((login) => login.response), download.body]);
      const arrivals = () =>
        started.output().split('"url":"/api/auth/login","msg":"requête reçue"').length - 1;
      await vi.waitFor(() => expect(arrivals()).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 20 });

      const signalsReceived = () => started.output().split('"msg":"signal reçu').length - 1;
      process.kill(-group, 'SIGINT'); // Ctrl-C: npm and the server at once, npm relays it too
      await waitForOutput(started, 'arrêt en cours');
      const beforeSecond = signalsReceived();
      process.kill(-group, 'SIGINT'); // an impatient second Ctrl-C
      await vi.waitFor(() => expect(signalsReceived()).toBeGreaterThan(beforeSecond), {
        timeout: 10_000,
        interval: 20,
      });

      for (const login of logins) login.finish();
      download.resume();
      const [accepted, refused, received] = await answers;
      expect(accepted).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
      expect(refused).toMatchObject({ status: 'fulfilled', value: { status: 401 } });
      expect(received?.status).toBe('fulfilled');
      const bytes = (received as PromiseFulfilledResult<Buffer>).value;
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(
        createHash('sha256').update(file).digest('hex'),
      );
      expect(await started.exited).toBe(0);
      expect(started.output()).not.toContain('exiting');
      expect(isAlive(serverPid)).toBe(false);
      expect(await isPortOpen(port)).toBe(false);
    } finally {
      if (started.child.exitCode === null) process.kill(-group, 'SIGKILL');
    }
  });
});

describe('durability on the embedded database', () => {
  it('an acknowledged write survives SIGKILL', { timeout: 120_000 }, async () => {
    const dataDir = await tempDir();
    const port = await availablePort();
    const api = `http://127.0.0.1:${port}/api`;
    const first = spawnServer('compiled', { DATA_DIR: dataDir, PORT: port });
    await waitForOutput(first, 'Plateforme prête');
    const password = first.output().match(/mot de passe : (\S+)/)?.[1];
    const login = await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const { token } = (await login.json()) as { token: string };
    const write = await fetch(`${api}/me/discord`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ discordId: 'durable#2026' }),
    });
    expect(write.status).toBe(200); // acknowledged

    first.child.kill('SIGKILL');
    await first.exited;
    const second = spawnServer('compiled', { DATA_DIR: dataDir, PORT: port });
    await waitForOutput(second, 'Plateforme prête'); // the lock of the killed process is taken over
    const info = await fetch(`${api}/me/info`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await info.json()) as { data: { discordId: string } }).data.discordId).toBe('durable#2026');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

/** Every folder and file under `root` with a mode other than `dirMode` / `fileMode`. */
async function modesOtherThan(root: string, dirMode: number, fileMode: number): Promise<string[]> {
  const found: string[] = [];
  const visit = async (file: string) => {
    const info = await stat(file);
    const mode = info.mode & 0o777;
    if (info.isDirectory()) {
      if (mode !== dirMode) found.push(`${file} ${mode.toString(8)}`);
      for (const entry of await readdir(file)) await visit(path.join(file, entry));
    } else if (mode !== fileMode) found.push(`${file} ${mode.toString(8)}`);
  };
  await visit(root);
  return found;
}

describe('nothing at rest is readable by another local user', () => {
  it('the embedded default master key is created 0600 beside DATA_DIR and announced once; DATA_DIR, its files and the outbox are 0700/0600', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(await tempDir(), 'data');
    const keyFile = `${dataDir}.master-key`;
    // What an older version left: a world-readable folder and mail.
    await mkdir(path.join(dataDir, 'outbox'), { recursive: true });
    await chmod(dataDir, 0o755);
    await writeFile(path.join(dataDir, 'outbox', 'ancien.eml'), 'lien à usage unique', { mode: 0o644 });
    await chmod(path.join(dataDir, 'outbox', 'ancien.eml'), 0o644);

    const port = await availablePort();
    const first = spawnServer('compiled', {
      DATA_DIR: dataDir,
      PORT: port,
      ADMIN_EMAIL: 'admin@example.test',
    });
    await waitForOutput(first, 'Plateforme prête');
    expect(first.output()).toContain(`Clé maîtresse créée : ${keyFile}`);
    expect(first.output()).toContain('Sauvegardez-la à part des données');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await readFile(keyFile, 'utf8')).trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // While it serves, no folder is open to others (PGlite sets its own files 0666 inside them).
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dataDir, 'outbox', 'ancien.eml'))).mode & 0o777).toBe(0o600);
    expect(
      (await modesOtherThan(dataDir, 0o700, 0o600)).filter((line) => !line.includes('/pglite/')),
    ).toEqual([]);

    // A mail written to the outbox (no SMTP_URL) carries a one-time link: its owner's only.
    const forgot = await fetch(`http://127.0.0.1:${port}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.test' }),
    });
    expect(forgot.status).toBe(200);
    const outbox = path.join(dataDir, 'outbox');
    const mail = await vi.waitFor(
      async () => {
        const name = (await readdir(outbox)).find((entry) => entry !== 'ancien.eml');
        if (!name) throw new Error('pas encore de mail dans l’outbox');
        return path.join(outbox, name);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect((await stat(mail)).mode & 0o777).toBe(0o600);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(await modesOtherThan(dataDir, 0o700, 0o600)).toEqual([]);

    // The next start reads the same key and announces nothing.
    const second = spawnServer('compiled', { DATA_DIR: dataDir, PORT: port });
    await waitForOutput(second, 'Plateforme prête');
    expect(second.output()).not.toContain('Clé maîtresse créée');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('a data folder started with another master key refuses to start, saying the key does not match', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(await tempDir(), 'data');
    const port = await availablePort();
    const first = spawnServer('compiled', { DATA_DIR: dataDir, PORT: port });
    await waitForOutput(first, 'Plateforme prête');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const thief = spawnServer('compiled', {
      DATA_DIR: dataDir,
      PORT: port,
      MASTER_KEY: randomBytes(32).toString('base64'),
    });
    expect(await thief.exited).toBe(1);
    expect(thief.output()).toContain('La clé maîtresse ne correspond pas à ces données');
    expect(thief.output()).not.toMatch(/\n\s+at /);
  });
});

describe('start-up errors: one French paragraph, exit 1, the stack only at debug level', () => {
  const failsWith = async (env: Record<string, string>, expected: string) => {
    const started = spawnServer('compiled', { PORT: await availablePort(), LOG_LEVEL: 'info', ...env });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('Le serveur n’a pas pu démarrer.');
    expect(started.output()).toContain(expected);
    expect(started.output()).not.toMatch(/\n\s+at /); // no stack trace
    return started;
  };

  it('invalid configuration lists every bad variable', async () => {
    const started = await failsWith({ PORT: 'abc', PUBLIC_URL: 'pas une url' }, 'Configuration invalide');
    expect(started.output()).toContain('PORT');
    expect(started.output()).toContain('PUBLIC_URL');
  });

  it('a DATA_DIR that cannot be written', async () => {
    const file = path.join(await tempDir(), 'un-fichier');
    await writeFile(file, 'pas un dossier');
    await failsWith({ DATA_DIR: path.join(file, 'data') }, 'n’est pas utilisable en écriture');
  });

  it('a corrupt embedded database', { timeout: 60_000 }, async () => {
    const dataDir = await tempDir();
    await mkdir(path.join(dataDir, 'pglite', 'global'), { recursive: true });
    await writeFile(path.join(dataDir, 'pglite', 'PG_VERSION'), '17\n');
    await writeFile(path.join(dataDir, 'pglite', 'global', 'pg_control'), 'endommagé');
    await failsWith({ DATA_DIR: dataDir }, 'est illisible');
  });

  it('an unreachable PostgreSQL, and the stack with LOG_LEVEL=debug', async () => {
    const closedPort = await availablePort();
    let serverPort = await availablePort();
    while (serverPort === closedPort) serverPort = await availablePort();
    await failsWith(
      { PORT: serverPort, DATABASE_URL: `postgres://u:p@127.0.0.1:${closedPort}/db` },
      'est injoignable',
    );
    const debug = spawnServer('compiled', {
      PORT: serverPort,
      LOG_LEVEL: 'debug',
      DATABASE_URL: `postgres://u:p@127.0.0.1:${closedPort}/db`,
    });
    expect(await debug.exited).toBe(1);
    expect(debug.output()).toMatch(/\n\s+at /);
  });

  it('a wrong PostgreSQL password', { timeout: 90_000 }, async () => {
    const postgres = await startPostgresServer();
    try {
      await failsWith(
        { DATABASE_URL: postgres.url.replace('postgres:postgres@', `postgres:${TEST_PASSWORD}@`) },
        'refuse l’identifiant ou le mot de passe',
      );
    } finally {
      await postgres.destroy();
    }
  });
});
