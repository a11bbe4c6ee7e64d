import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { get, request } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { RELEASE_PART_BYTES } from '@bot/contracts';
import { describe, expect, it, vi } from 'vitest';
import { TEST_PASSWORD } from './harness.ts';
import { availablePort, spawnServer, useTempDirs, waitForOutput } from './helpers/server-process.ts';
import { startPostgresServer } from './postgres-server.ts';

const tempDir = useTempDirs('bot-main-');

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
