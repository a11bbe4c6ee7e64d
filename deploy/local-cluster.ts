import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The scale-out topology on loopback, as `npm run cluster` starts it and the node-kill test
 * exercises it: one PostgreSQL, one Redis, N nodes (the compiled server, real processes) and nginx
 * in front. deploy/compose.yaml describes the same topology for production.
 */
export interface LocalClusterOptions {
  /** Where data, logs and the rendered nginx configuration go. */
  workDir: string;
  /** One node per port. */
  ports: { nginx: number; postgres: number; redis: number; nodes: number[] };
  /** false: one node alone on PostgreSQL, no Redis, no nginx (the baseline of bench/cluster). */
  shared?: boolean;
  /** Extra environment of every node (LOG_LEVEL, ADMIN_PASSWORD…). */
  env?: Record<string, string>;
  /** Extra environment of one node, by its index (a node with thresholds of its own…). */
  nodeEnv?: Record<number, Record<string, string>>;
  /** Receives every output line of every process, prefixed with its name. */
  onOutput?: (line: string) => void;
}

export interface LocalNode {
  name: string;
  port: number;
  url: string;
  process: ChildProcess;
  /** Kills the node (SIGKILL: no graceful shutdown, as a crash or an OOM kill would). */
  kill(): Promise<void>;
}

export interface LocalCluster {
  /** The one URL to open: nginx (the node itself when not `shared`). */
  url: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  /**
   * The master key every node seals with (MASTER_KEY_FILE, or the MASTER_KEY of `env`): what a
   * process joining the cluster's database (seed:demo, a test server) must be given as well.
   */
  masterKeyEnv: Record<string, string>;
  nodes: LocalNode[];
  /** Every process of the topology by part (nodes, Redis, nginx, PostgreSQL, each with its children), for CPU accounting. */
  processes(): { name: string; pids: number[] }[];
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const serverMain = path.join(root, 'apps/server/dist/main.js');
const postgresScript = path.join(root, 'scripts/test-postgres.sh');
const nginxTemplate = path.join(root, 'deploy/nginx/bot-platform.conf.template');
/** Included by the template, relative to the configuration's folder. */
const nginxLocations = path.join(root, 'deploy/nginx/bot-platform.locations.conf');

export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  if (!existsSync(serverMain)) throw new Error(`serveur non compilé (${serverMain}) : npm run build`);
  ensureDebianPackage('/usr/bin/redis-server', 'redis-server');
  ensureDebianPackage('/usr/sbin/nginx', 'nginx-light');
  await assertPortsFree([
    ...(options.shared === false
      ? []
      : [
          { port: options.ports.redis, part: 'Redis' },
          { port: options.ports.nginx, part: 'nginx' },
        ]),
    // Another PostgreSQL there would be taken for ours (the start script reuses what answers), and
    // our stop would leave it running while the nodes wrote into it.
    { port: options.ports.postgres, part: 'PostgreSQL' },
    ...options.ports.nodes.map((port, i) => ({ port, part: `nœud ${i + 1}` })),
  ]);
  await mkdir(options.workDir, { recursive: true });
  await chmod(options.workDir, 0o755); // PostgreSQL runs as its own user when we are root
  const masterKeyEnv = await clusterMasterKey(options);
  const output = options.onOutput ?? (() => {});
  const children: { name: string; child: ChildProcess }[] = [];
  const stopPostgres = () =>
    execFileSync('bash', [postgresScript, 'stop'], { env: postgresEnv(options), stdio: 'ignore' });

  // Never leave a part behind if this process ends without stopping them (they have their own
  // process group: the terminal's Ctrl-C does not reach them).
  const killLeftovers = () => {
    for (const { child } of children) if (isRunning(child)) child.kill('SIGKILL');
  };
  process.once('exit', killLeftovers);
  // In the order that lets each part leave cleanly: nginx takes no more work, the nodes close their
  // sockets and write what they hold (while Redis and PostgreSQL still answer), then Redis.
  const stop = async () => {
    const stage = (isPart: (name: string) => boolean) =>
      Promise.all(
        children.filter(({ name }) => isPart(name)).map(({ child }) => terminate(child, 'SIGTERM')),
      );
    output('[grappe] arrêt de nginx');
    await stage((name) => name === 'nginx');
    output('[grappe] arrêt des nœuds');
    await stage((name) => name !== 'nginx' && name !== 'redis');
    output('[grappe] arrêt de Redis et PostgreSQL');
    await stage((name) => name === 'redis');
    stopPostgres();
    process.off('exit', killLeftovers);
  };
  try {
    const databaseUrl = execFileSync('bash', [postgresScript, 'start'], { env: postgresEnv(options) })
      .toString()
      .trim();
    const shared = options.shared ?? true;
    const redisUrl = shared ? `redis://127.0.0.1:${options.ports.redis}` : undefined;
    if (shared) {
      const redis = run(
        'redis',
        'redis-server',
        ['--port', String(options.ports.redis), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {},
        output,
      );
      children.push({ name: 'redis', child: redis });
      await waitUntil(() => redisAnswers(options.ports.redis), 'Redis', redis);
    }

    const publicUrl = shared
      ? `http://127.0.0.1:${options.ports.nginx}`
      : `http://127.0.0.1:${options.ports.nodes[0]}`;
    const nodes: LocalNode[] = [];
    for (const [i, port] of options.ports.nodes.entries()) {
      const name = `nœud ${i + 1}`;
      const child = run(
        name,
        process.execPath,
        // BENCH_PROFILE_DIR (benchmarks): each node writes a CPU profile there when it stops.
        [...profileArgs(), serverMain],
        {
          ...options.env,
          ...options.nodeEnv?.[i],
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: publicUrl,
          DATA_DIR: path.join(options.workDir, `node-${i + 1}`),
          DATABASE_URL: databaseUrl,
          ...masterKeyEnv,
          // Simulated bots and browsers all connect from this machine.
          SOCKET_HANDSHAKE_ALLOWLIST: '127.0.0.1,::1',
          ...(redisUrl ? { REDIS_URL: redisUrl, TRUST_PROXY: '1' } : {}),
        },
        output,
      );
      children.push({ name, child });
      const url = `http://127.0.0.1:${port}`;
      nodes.push({ name, port, url, process: child, kill: () => terminate(child, 'SIGKILL') });
      // The first node migrates the database and creates the first administrator alone.
      if (i === 0) await waitUntil(() => isReady(url), name, child);
    }
    await Promise.all(
      nodes.slice(1).map((node) => waitUntil(() => isReady(node.url), node.name, node.process)),
    );

    if (shared) {
      const nginxDir = path.join(options.workDir, 'nginx');
      await writeNginxConfig(nginxDir, options.ports.nginx, nodes);
      const nginx = run('nginx', 'nginx', ['-p', nginxDir, '-c', 'nginx.conf', '-e', 'stderr'], {}, output);
      children.push({ name: 'nginx', child: nginx });
      await waitUntil(() => isReady(publicUrl), 'nginx', nginx);
    }
    const processes = () => {
      const parts = children.map(({ name, child }) => ({ name, root: child.pid }));
      parts.push({ name: 'postgres', root: readPostmasterPid(path.join(options.workDir, 'postgres')) });
      const tree = processTree();
      return parts.flatMap(({ name, root }) => (root ? [{ name, pids: withDescendants(tree, root) }] : []));
    };
    return { url: publicUrl, databaseUrl, redisUrl, masterKeyEnv, nodes, processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * With PostgreSQL every node must be told the same master key (a node never makes one up): the
 * MASTER_KEY or MASTER_KEY_FILE of `env`, else a file of the cluster's own, made once in its
 * folder (0600), beside the PostgreSQL data and not inside it, as a real deployment keeps it apart.
 */
async function clusterMasterKey(options: LocalClusterOptions): Promise<Record<string, string>> {
  if (options.env?.MASTER_KEY) return { MASTER_KEY: options.env.MASTER_KEY };
  if (options.env?.MASTER_KEY_FILE) return { MASTER_KEY_FILE: options.env.MASTER_KEY_FILE };
  const file = path.join(options.workDir, 'master-key');
  if (!existsSync(file))
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return { MASTER_KEY_FILE: file };
}

/** The repository's template, filled for loopback, inside a main configuration of its own. */
async function writeNginxConfig(dir: string, port: number, nodes: LocalNode[]): Promise<void> {
  const fileLimit = Math.min(65_536, hardOpenFileLimit());
  await mkdir(path.join(dir, 'temp'), { recursive: true });
  const site = (await readFile(nginxTemplate, 'utf8'))
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template's envsubst placeholder
    .replaceAll('${NGINX_LISTEN}', `127.0.0.1:${port}`)
    .replaceAll(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the template's envsubst placeholder
      '${UPSTREAM_SERVERS}',
      nodes.map((node) => `server 127.0.0.1:${node.port} max_fails=1 fail_timeout=5s;`).join('\n    '),
    );
  await writeFile(path.join(dir, 'bot-platform.conf'), site);
  await copyFile(nginxLocations, path.join(dir, 'bot-platform.locations.conf'));
  await writeFile(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      // Two descriptors per proxied websocket (client and node): 16,384 connections held only 8,192
      // sockets, and the 10,000-bot benchmark lost the rest. Same numbers as deploy/nginx/nginx.conf.
      // Where the open-files limit cannot be raised (this machine: 20,000, even for root), one worker
      // holds at most 10,000 websockets: a worker per core (each with its own limit) holds twice that.
      'worker_processes auto;',
      `worker_rlimit_nofile ${fileLimit};`,
      `pid ${path.join(dir, 'nginx.pid')};`,
      'error_log stderr warn;',
      `events { worker_connections ${Math.min(32_768, fileLimit)}; }`,
      'http {',
      '    access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `    ${kind}_temp_path ${path.join(dir, 'temp', kind)};`,
      ),
      `    include ${path.join(dir, 'bot-platform.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
}

function postgresEnv(options: LocalClusterOptions): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PGPORT: String(options.ports.postgres),
    PGDIR: path.join(options.workDir, 'postgres'),
  };
}

function profileArgs(): string[] {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

function run(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  output: (line: string) => void,
): ChildProcess {
  // Its own process group (`detached`): a Ctrl-C in the terminal reaches only the script, which
  // stops the parts in order (`stop`); Redis used to exit first and every node logged its absence.
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) output(`[${name}] ${line}`);
    });
  }
  return child;
}

/**
 * Refuses to start over another cluster's processes (one left running by a closed terminal): its
 * Redis or nginx would answer for ours, and our stop would pull PostgreSQL from under them.
 */
async function assertPortsFree(ports: { port: number; part: string }[]): Promise<void> {
  const busy: string[] = [];
  for (const { port, part } of ports) {
    const probe = createServer();
    const isFree = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (!isFree) busy.push(`${port} (${part})`);
  }
  if (busy.length > 0)
    throw new Error(
      `port${busy.length > 1 ? 's' : ''} déjà pris : ${busy.join(', ')}. Une grappe précédente tourne-t-elle ` +
        'encore ? pgrep -af "redis-server|nginx|dist/main.js|postgres"',
    );
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

async function terminate(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (!isRunning(child)) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/** Started and serving: ready, or overloaded already (it serves what it holds, decision 911). */
async function isReady(url: string): Promise<boolean> {
  try {
    const answer = await fetch(`${url}/api/readyz`, { signal: AbortSignal.timeout(2_000) });
    return answer.ok || ((await answer.json()) as { code?: string }).code === 'OVERLOADED';
  } catch {
    return false;
  }
}

async function redisAnswers(port: number): Promise<boolean> {
  try {
    execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Polls until `check` holds (processes starting up), failing with the name of what never came. */
/** The open-files limit a process may raise itself to (nginx warns when asked for more). */
function hardOpenFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((candidate) => candidate.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[4]) || 65_536;
}

/** Polls `check`; gives up after `timeoutMs`, or at once when `process` (what is awaited) exits. */
async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  process?: ChildProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (process && (process.exitCode !== null || process.signalCode !== null))
      throw new Error(
        `${what} s’est arrêté (${process.exitCode ?? process.signalCode}) : voir ses lignes ci-dessus`,
      );
    if (Date.now() > deadline) throw new Error(`${what} ne répond pas après ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function readPostmasterPid(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
  } catch {
    return undefined;
  }
}

/** Children of every process (from /proc). */
function processTree(): Map<number, number[]> {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  return childrenOf;
}

function withDescendants(tree: Map<number, number[]>, root: number): number[] {
  const found: number[] = [];
  const visit = (pid: number) => {
    found.push(pid);
    for (const child of tree.get(pid) ?? []) visit(child);
  };
  visit(root);
  return found;
}

/** Installs a Debian package when its binary is missing (needs root, as on CI machines). */
export function ensureDebianPackage(binary: string, pkg: string): void {
  if (existsSync(binary)) return;
  console.log(`${pkg} absent : installation (apt-get install ${pkg})…`);
  execFileSync(
    'bash',
    ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`],
    {
      stdio: 'inherit',
    },
  );
}
