/**
 * Drives many fake bots through the SDK: `npm run simulate -- --bots 1000 --rate 1`.
 * Users, access keys and hwids come from `npm run seed:demo` (`DATA_DIR/demo-bots.json`). Run from
 * the repository root (the npm script does), with the same `PORT`, `HOST` and `DATA_DIR` as
 * `npm start` and the seed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type BotReport, DEV_TRUST_ROOT_PATH } from '@bot/contracts';
import type { JWK } from 'jose';
import { BotApiError, type BotClient, createBotClient } from './client.ts';
import { DEMO_AGENT_VERSION, type DemoBotsFile } from './demo-file.ts';
import type { VerifiedLease } from './lease.ts';
import { reconnectionDelay } from './reconnection.ts';
import { logActivity } from './simulated-activity.ts';
import { runSimulatedCommands } from './simulated-commands.ts';
import { SimulatedBot } from './world.ts';

/** Where the seed wrote its file: `DATA_DIR` resolved as the server resolves it (`./data` by default). */
const DEFAULT_FILE = path.resolve(process.env.DATA_DIR || 'data', 'demo-bots.json');

/** How often a bot of the broken version (`--fail-version`) drops and comes back. */
const FAILING_RECONNECT_MS = 20_000;

const { values } = parseArgs({
  options: {
    bots: { type: 'string', default: '100' },
    rate: { type: 'string', default: '1' },
    url: { type: 'string' },
    file: { type: 'string', default: DEFAULT_FILE },
    version: { type: 'string' },
    'fail-version': { type: 'string' },
    duration: { type: 'string', default: '0' },
    ramp: { type: 'string', default: '200' },
    'trust-root': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`npm run simulate -- [--bots 100] [--rate 1] [--url URL] [--file ${DEFAULT_FILE}] [--version X.Y.Z]
  --bots N        simulated bots (one per demo user)
  --rate R        reports per second and bot
  --url URL       the server (default: http://HOST:PORT when PORT is set, else the seed's server)
  --file F        the seed's file (default: DATA_DIR/demo-bots.json)
  --version V     the agent version the bots play (default: the seed's, ${DEMO_AGENT_VERSION});
                  another one opens a session per bot (30 per minute and address): keep --bots small
  --fail-version V  bots playing version V are broken: every account in error, a reconnection every
                  ${FAILING_RECONNECT_MS / 1000} s (what halts a staged rollout of V, decision 910)
  --duration S    stop after S seconds (0: until Ctrl-C)
  --ramp C        new connections per second while starting
  --trust-root F  the root public key (JWK file) the bots pin (default: the development root a
                  loopback server publishes, docs/licensing.md)`);
  process.exit(0);
}

const botCount = Number(values.bots);
const rate = Number(values.rate);
const durationS = Number(values.duration);
const ramp = Math.max(1, Number(values.ramp));
if (!(botCount > 0) || !(rate > 0)) {
  console.error('--bots et --rate doivent être positifs.');
  process.exit(1);
}

let demo: DemoBotsFile;
try {
  demo = JSON.parse(readFileSync(values.file, 'utf8')) as DemoBotsFile;
} catch {
  console.error(
    `Fichier de démonstration introuvable : ${values.file}\n` +
      "Lancez d'abord npm run seed:demo, avec le même DATA_DIR (ou indiquez --file).",
  );
  process.exit(1);
}
if (demo.bots.length < botCount) {
  console.error(
    `Le fichier ne contient que ${demo.bots.length} bots : npm run seed:demo -- --users ${botCount}`,
  );
  process.exit(1);
}

/** --url, else the address `npm start` listens on with this PORT and HOST, else the seed's server. */
const serverUrl =
  values.url ??
  (process.env.PORT ? `http://${process.env.HOST || '127.0.0.1'}:${process.env.PORT}` : demo.serverUrl);
const seededVersion = demo.agentVersion ?? DEMO_AGENT_VERSION;
const agentVersion = values.version ?? seededVersion;
/** The seed's sessions carry its version: another version opens sessions of its own (checked then). */
const reusesSeedSessions = agentVersion === seededVersion;

/**
 * The root the bots pin: the vendor's file, else the development root of a loopback server (a
 * public one does not publish it; a real agent has its root built in, decision 912).
 */
async function loadTrustRoot(): Promise<JWK> {
  if (values['trust-root']) return JSON.parse(readFileSync(values['trust-root'], 'utf8')) as JWK;
  const response = await fetch(`${serverUrl}${DEV_TRUST_ROOT_PATH}`).catch(() => undefined);
  if (!response?.ok) {
    console.error(
      `Aucune clé racine : ${serverUrl} ne publie pas de racine de développement (installation publique ?). Indiquez --trust-root FICHIER (la clé publique affichée par npm run keys:root).`,
    );
    process.exit(1);
  }
  console.log('Racine de développement du serveur local utilisée (jamais en production).');
  return (await response.json()) as JWK;
}
const trustRoot = await loadTrustRoot();

/** Agents stopped for good (refused, revoked): neither their reports nor their leases count. */
const stoppedClients = new Set<BotClient>();
const counters = { reports: 0, dropped: 0, errors: 0, fatal: 0, reconnects: 0, renewals: 0, revoked: 0 };
/** The latest error, shown with the counts: "erreurs 20" alone does not say a node is overloaded. */
let lastError: string | undefined;

/** An error in a line: a refused websocket says its HTTP status only in its description. */
function describeError(error: Error): string {
  const description = (error as { description?: { message?: string } }).description?.message;
  return description ? `${error.message} (${description})` : error.message;
}
const clients: BotClient[] = [];
const timers: NodeJS.Timeout[] = [];
const periodMs = 1000 / rate;

async function startBot(index: number): Promise<void> {
  const entry = demo.bots[index]!;
  const isFailing = values['fail-version'] === agentVersion;
  const world = new SimulatedBot(entry.hwid, entry.accounts, { failing: isFailing });
  if (isFailing) timers.push(setInterval(() => client.reconnect(), FAILING_RECONNECT_MS));
  const client = createBotClient({
    serverUrl,
    accessKey: entry.accessKey,
    hwid: entry.hwid,
    version: agentVersion,
    trustRoot,
    session: reusesSeedSessions ? (entry.session ?? undefined) : undefined,
  });
  clients.push(client);
  // Remote commands: a paused bot's world stands still; the SDK's keep-alive says it is paused.
  const commands = runSimulatedCommands(client, world);
  let wasAuthenticated = false;
  client.on('authenticated', () => {
    if (wasAuthenticated) counters.reconnects += 1;
    wasAuthenticated = true;
  });
  client.on('error', (error) => {
    counters.errors += 1;
    lastError = describeError(error);
  });
  client.on('updateAvailable', (update) => {
    if (index === 0)
      console.log(
        update.rollback
          ? `Version retirée : retour demandé à la ${update.version} — ${update.pageUrl}`
          : `Nouvelle version du bot disponible : ${update.version} — ${update.pageUrl}`,
      );
  });
  client.on('fatal', (error) => {
    stoppedClients.add(client);
    stopped(entry.username, error);
  });
  client.on('leaseRenewed', () => {
    counters.renewals += 1;
  });
  client.on('leaseExpiring', (lease) => {
    if (toldCodes.has('leaseExpiring')) return;
    toldCodes.add('leaseExpiring');
    console.error(
      `[${entry.username}] plateforme injoignable : le bot tourne sur son bail jusqu'au ${when(lease.stopsAt)}` +
        (lease.inGrace ? ' (sur la période de grâce)' : ''),
    );
  });
  client.on('leaseRevoked', (error) => {
    counters.revoked += 1;
    if (toldCodes.has(`revoked:${error.code}`)) return;
    toldCodes.add(`revoked:${error.code}`);
    console.error(`[${entry.username}] bail révoqué : ${error.code} ${error.message}`);
  });
  void connectBot(client, entry.username);
  let previous: BotReport | undefined;
  const start = setTimeout(() => {
    timers.push(
      setInterval(() => {
        // A stopped agent reports nothing any more; a paused one is kept alive by the SDK until `resume`.
        if (stoppedClients.has(client) || commands.isPaused()) return;
        const report = world.tick();
        logActivity(client, report, previous);
        previous = report;
        if (client.report(report)) counters.reports += 1;
        else counters.dropped += 1;
      }, periodMs),
    );
  }, Math.random() * periodMs);
  timers.push(start);
}

/** Refusals told once per code (200 bots refused for the same reason would flood the console). */
const toldCodes = new Set<string>();
function stopped(username: string, error: BotApiError): void {
  counters.fatal += 1;
  if (toldCodes.has(error.code)) return;
  toldCodes.add(error.code);
  console.error(`[${username}] arrêt : ${error.code} ${error.message}`);
}

/**
 * The first connection: a refusal that reconnecting cannot change (an outdated version, a banned
 * account) stops the bot; anything else (the session route's rate limit, the server not up yet) is
 * tried again with the SDK's reconnection delays.
 */
async function connectBot(client: BotClient, username: string, attempt = 0): Promise<void> {
  try {
    await client.connect();
  } catch (error) {
    if (error instanceof BotApiError) {
      // Status 0: refused over the socket, already told through `fatal`.
      if (error.status === 0) return;
      if (error.status < 500 && error.status !== 429) return stopped(username, error);
    }
    if ((error as Error).message === 'client stopped') return;
    counters.errors += 1;
    lastError = describeError(error as Error);
    setTimeout(() => void connectBot(client, username, attempt + 1), reconnectionDelay(attempt));
  }
}

const when = (date: Date) => date.toLocaleString('fr-FR');

/**
 * The fleet's leases in one line, however many bots: how many hold one, the keys that signed them,
 * the earliest expiry, how many run on their grace period, renewals and revocations so far.
 */
function leaseStatus(): string {
  const now = Date.now();
  const leases = clients
    .filter((client) => !stoppedClients.has(client))
    .map((client) => client.lease)
    .filter((lease): lease is VerifiedLease => lease !== null);
  const kids = [...new Set(leases.map((lease) => lease.kid.slice(0, 8)))];
  const firstExpiry = leases.reduce((first, lease) => Math.min(first, lease.expiresAt.getTime()), Infinity);
  const onGrace = leases.filter((lease) => lease.inGrace || lease.expiresAt.getTime() <= now).length;
  return (
    `bail ${leases.length}/${botCount}` +
    (leases.length > 0
      ? ` (clé ${kids.slice(0, 3).join(', ')}${kids.length > 3 ? '…' : ''}, 1re expiration ${when(new Date(firstExpiry))})`
      : '') +
    `  renouvellements ${counters.renewals}  sur la période de grâce ${onGrace}  révocations ${counters.revoked}`
  );
}

/** Read from the clients, not counted from events: it cannot drift across restarts. */
const onlineCount = () => clients.filter((client) => client.isConnected).length;

async function main(): Promise<void> {
  console.log(
    `Simulation : ${botCount} bots en version ${agentVersion}, ${rate} rapport(s)/s chacun, serveur ${serverUrl}`,
  );
  const startedAt = Date.now();
  for (let i = 0; i < botCount; i += 1) {
    await startBot(i);
    if ((i + 1) % ramp === 0) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  let lastReports = 0;
  const stats = setInterval(() => {
    const perSecond = (counters.reports - lastReports) / 5;
    lastReports = counters.reports;
    console.log(
      `en ligne ${onlineCount()}/${botCount}  rapports ${counters.reports} (${perSecond.toFixed(0)}/s)` +
        `  non envoyés ${counters.dropped}  reconnexions ${counters.reconnects}  erreurs ${counters.errors}  arrêts ${counters.fatal}`,
    );
    console.log(`  ${leaseStatus()}`);
    if (lastError) console.log(`  dernière erreur : ${lastError}`);
    lastError = undefined;
  }, 5000);
  const stop = async () => {
    clearInterval(stats);
    for (const timer of timers) clearInterval(timer);
    await Promise.all(clients.map((client) => client.stop()));
    console.log(
      `Arrêt après ${((Date.now() - startedAt) / 1000).toFixed(0)} s, ${counters.reports} rapports envoyés.`,
    );
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (durationS > 0) setTimeout(() => void stop(), durationS * 1000);
}

void main();
