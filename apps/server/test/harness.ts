import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Permission, User } from '@bot/contracts';
import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import { buildApp } from '../src/app.ts';
import { type AppConfig, DEFAULT_RATE_LIMITS, loadConfig } from '../src/config.ts';
import { type AppContext, contextOf } from '../src/context.ts';
import type { Clock } from '../src/core/clock.ts';
import { newId } from '../src/core/ids.ts';
import { hashPassword } from '../src/core/passwords.ts';
import { getPublicUser, grantPermission } from '../src/modules/access/index.ts';
import { createSession } from '../src/modules/auth/index.ts';
import { findCurrentKeySet, signKeySet } from '../src/modules/licensing/index.ts';
import { users } from '../src/modules/users/index.ts';
import { createTestDatabase } from './database.ts';
import { fetchDevelopmentRoot, testRootKey } from './helpers/trust-root.ts';
import { MailReceiver } from './mail-receiver.ts';

export interface TestUser {
  user: User;
  password: string;
  /** A live session token for the user (absent for unactivated users). */
  token: string;
}

export interface TestServer {
  url: string;
  /** `${url}/api` */
  api: string;
  /** The running app (a new one after `restart`). */
  readonly app: FastifyInstance;
  /** The running app's whole context (its routes see `app.ctx`, without `db` and `events`). */
  readonly ctx: AppContext;
  /**
   * The root public key an agent of this server pins (`createBotClient({ trustRoot })`): the
   * development root of a loopback server, the tests' offline root for a public one (decision 912).
   */
  readonly trustRoot: JWK;
  mail: MailReceiver;
  createUser(input?: CreateUserInput): Promise<TestUser>;
  /**
   * A graceful restart on the same port and database (needs `openDatabaseFromConfig`): the app
   * drains and closes, `whileDown` runs, a new app starts.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

interface CreateUserInput {
  username?: string;
  email?: string;
  password?: string;
  isAdministrator?: boolean;
  activated?: boolean;
  permissions?: Permission[];
}

export interface StartTestServerOptions {
  /** Built web app to host (`apps/web/dist`); without it only the API answers. */
  webDist?: string;
  rateLimits?: Partial<AppConfig['rateLimits']>;
  realtime?: Partial<AppConfig['realtime']>;
  mail?: Partial<AppConfig['mail']>;
  alerts?: Partial<AppConfig['alerts']>;
  commands?: Partial<AppConfig['commands']>;
  load?: Partial<AppConfig['load']>;
  env?: Record<string, string>;
  /** Let the app open (and migrate) the database its config names, e.g. a PostgreSQL of the test's own. */
  openDatabaseFromConfig?: boolean;
  /** Receives every JSON log line (the log level is then `TEST_LOG_LEVEL` or `debug`). */
  onLogLine?: (line: string) => void;
  /** The app's clock (`ctx.clock`): a `ManualClock` stands at the edge of a minute or an hour. */
  clock?: Clock;
}

/** Strong enough for zxcvbn, shared by test users. */
export const TEST_PASSWORD = 'Velours-Horloge-Cactus-93';

/**
 * A port free on 127.0.0.1 now, below the system's ephemeral range (`ip_local_port_range`, 32768 and
 * up): a port the system handed out could be taken, before the test listened on it, by the local end
 * of one of the suite's own outgoing connections (seen in CI: "listen EADDRINUSE 127.0.0.1:45107").
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const isFree = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (isFree) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
  throw new Error('aucun port libre entre 20000 et 32000');
}

let userCounter = 0;

/**
 * The master key of every test server (core/master-key.ts): one for all, so the nodes of a test
 * cluster and a restarted server open the same sealed secrets. A test may give its own in `env`.
 */
export const TEST_MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * What a test server that is a public installation (a public `PUBLIC_URL` or `HOST`) must be told
 * to start (docs/operations.md, "A public installation"): tests that listen on every interface or
 * print a public address spread this into their `env`.
 */
export const PUBLIC_INSTALLATION_ENV: Record<string, string> = { PAYMENT_PROVIDER: 'sandbox' };

/** A real listening server on a random port, with a fresh database and a real SMTP receiver. */
export async function startTestServer(options: StartTestServerOptions = {}): Promise<TestServer> {
  const mail = new MailReceiver();
  const smtpUrl = await mail.start();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bot-test-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const base = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    SMTP_URL: smtpUrl,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Tests open many sockets from this machine, as the simulator does; the handshake limit's own
    // tests set it back to empty (no address exempt, the default).
    SOCKET_HANDSHAKE_ALLOWLIST: '127.0.0.1,::1',
    ...(options.env?.MASTER_KEY_FILE ? {} : { MASTER_KEY: TEST_MASTER_KEY }),
    ...(options.webDist ? { WEB_DIST_DIR: options.webDist } : {}),
    ...options.env,
  });
  // Tests sign in many times from one address: the per-IP login rule is relaxed unless a test sets it.
  const config: AppConfig = {
    ...base,
    rateLimits: {
      ...DEFAULT_RATE_LIMITS,
      loginPerIp: { max: 10_000, windowMs: 60_000 },
      register: { max: 10_000, windowMs: 60_000 },
      ...options.rateLimits,
    },
    realtime: { ...base.realtime, ...options.realtime },
    mail: { ...base.mail, ...options.mail },
    alerts: { ...base.alerts, ...options.alerts },
    commands: { ...base.commands, ...options.commands },
    // A test machine's loop is busy with the test itself (migrations, password hashes, browsers):
    // measured, a test server would call itself overloaded and refuse the bots a test connects.
    // The overload is tested on purpose (core/load-monitor.test.ts), with thresholds of its own.
    load: {
      ...base.load,
      enterUtilization: 2,
      exitUtilization: 2,
      enterOpenFiles: 2,
      exitOpenFiles: 2,
      ...options.load,
    },
  };
  const { database, dispose } = options.openDatabaseFromConfig
    ? { database: undefined, dispose: async () => {} }
    : await createTestDatabase();
  const onLogLine =
    options.onLogLine ??
    (process.env.TEST_LOG_LEVEL ? (line: string) => void process.stdout.write(line) : undefined);
  // Every answer must be one the OpenAPI document lists (core/route-docs.ts logs the others):
  // the whole suite checks the document's truth, and close() fails the file that found a gap.
  const undocumentedAnswers = new Set<string>();
  const logLine = (line: string) => {
    if (line.includes('"undocumentedAnswer"')) {
      undocumentedAnswers.add((JSON.parse(line) as { undocumentedAnswer: string }).undocumentedAnswer);
    }
    onLogLine?.(line);
  };
  const logLevel = options.onLogLine && config.logLevel === 'silent' ? 'debug' : config.logLevel;
  // A public installation needs a root-signed key set: the tests' root signs it as an operator's
  // `npm run keys:rotate -- --root-key` would (docs/licensing.md).
  const rootKey = config.installation.isLoopback ? undefined : await testRootKey();
  const start = async () => {
    const started = await buildApp({
      config: { ...config, logLevel: logLevel === 'silent' ? 'warn' : logLevel },
      database,
      skipMigrations: Boolean(database),
      logDestination: { write: logLine },
      rootKey,
      clock: options.clock,
    });
    if (rootKey && !(await findCurrentKeySet(started.ctx)))
      await signKeySet(started.ctx, { root: rootKey, actor: { id: null, username: 'test', ip: null } });
    await started.listen({ port, host: '127.0.0.1' });
    return started;
  };
  let app = await start();
  const trustRoot = rootKey?.publicJwk ?? (await fetchDevelopmentRoot(url));

  return {
    url,
    api: `${url}/api`,
    get app() {
      return app;
    },
    get ctx() {
      return contextOf(app);
    },
    trustRoot,
    mail,
    async createUser(input = {}) {
      userCounter += 1;
      const username = input.username ?? `user${userCounter}_${Math.random().toString(36).slice(2, 7)}`;
      const password = input.password ?? TEST_PASSWORD;
      const id = newId();
      const isActivated = input.activated ?? true;
      const ctx = contextOf(app);
      await ctx.db.insert(users).values({
        id,
        username,
        email: input.email ?? `${username}@example.test`,
        passwordHash: await hashPassword(password),
        isAdministrator: input.isAdministrator ?? false,
        activatedAt: isActivated ? new Date() : null,
      });
      for (const permission of input.permissions ?? []) {
        await grantPermission(app.ctx, {
          id: newId(),
          userId: id,
          permission,
          expiresAt: null,
          source: 'manual',
        });
      }
      const token = isActivated
        ? (await createSession(app.ctx, { userId: id, ip: '127.0.0.1', userAgent: 'test' })).token
        : '';
      return { user: await getPublicUser(app.ctx, id), password, token };
    },
    async restart(whileDown) {
      if (database)
        throw new Error('restart() needs openDatabaseFromConfig (a database that outlives the app)');
      await app.close();
      await whileDown?.();
      app = await start();
    },
    async close() {
      await app.close();
      await mail.close();
      await dispose();
      await rm(dataDir, { recursive: true, force: true });
      if (undocumentedAnswers.size > 0) {
        throw new Error(`Réponses absentes du document OpenAPI : ${[...undocumentedAnswers].join(', ')}`);
      }
    },
  };
}

/** A small JSON client for tests: `call('POST', '/auth/login', body, token)`. */
export function apiClient(server: Pick<TestServer, 'api'>) {
  return async function call<T = Record<string, unknown>>(
    method: string,
    route: string,
    body?: unknown,
    token?: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const response = await fetch(`${server.api}${route}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
}
