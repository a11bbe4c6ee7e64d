/**
 * Drives many fake bots through the SDK: `npm run simulate -- --bots 1000 --rate 1`.
 * Users, access keys and hwids come from `npm run seed:demo` (apps/server/data/demo-bots.json).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type BotClient, createBotClient } from './client.ts';
import type { DemoBotsFile } from './demo-file.ts';
import { SimulatedBot } from './world.ts';

const AGENT_VERSION = '1.0.0';
const DEFAULT_FILE = fileURLToPath(new URL('../../server/data/demo-bots.json', import.meta.url));

const { values } = parseArgs({
  options: {
    bots: { type: 'string', default: '100' },
    rate: { type: 'string', default: '1' },
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    file: { type: 'string', default: DEFAULT_FILE },
    duration: { type: 'string', default: '0' },
    ramp: { type: 'string', default: '200' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`npm run simulate -- [--bots 100] [--rate 1] [--url http://127.0.0.1:3000] [--file ${DEFAULT_FILE}]
  --bots N        simulated bots (one per demo user)
  --rate R        reports per second and bot
  --duration S    stop after S seconds (0: until Ctrl-C)
  --ramp C        new connections per second while starting`);
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
  console.error(`Fichier de démonstration introuvable : ${values.file}\nLancez d'abord : npm run seed:demo`);
  process.exit(1);
}
if (demo.bots.length < botCount) {
  console.error(
    `Le fichier ne contient que ${demo.bots.length} bots : npm run seed:demo -- --users ${botCount}`,
  );
  process.exit(1);
}

const counters = { reports: 0, dropped: 0, errors: 0, fatal: 0, reconnects: 0 };
const clients: BotClient[] = [];
const timers: NodeJS.Timeout[] = [];
const periodMs = 1000 / rate;

async function startBot(index: number): Promise<void> {
  const entry = demo.bots[index]!;
  const world = new SimulatedBot(entry.hwid, entry.accounts);
  const client = createBotClient({
    serverUrl: values.url,
    accessKey: entry.accessKey,
    hwid: entry.hwid,
    version: AGENT_VERSION,
    session: entry.session ?? undefined,
  });
  clients.push(client);
  let wasAuthenticated = false;
  client.on('authenticated', () => {
    if (wasAuthenticated) counters.reconnects += 1;
    wasAuthenticated = true;
  });
  client.on('error', () => {
    counters.errors += 1;
  });
  client.on('updateAvailable', (update) => {
    if (index === 0)
      console.log(`Nouvelle version du bot disponible : ${update.version} — ${update.pageUrl}`);
  });
  client.on('fatal', (error) => {
    counters.fatal += 1;
    console.error(`[${entry.username}] arrêt : ${error.code} ${error.message}`);
  });
  client.connect().catch(() => {});
  const start = setTimeout(() => {
    timers.push(
      setInterval(() => {
        if (client.report(world.tick())) counters.reports += 1;
        else counters.dropped += 1;
      }, periodMs),
    );
  }, Math.random() * periodMs);
  timers.push(start);
}

/** Read from the clients, not counted from events: it cannot drift across restarts. */
const onlineCount = () => clients.filter((client) => client.isConnected).length;

async function main(): Promise<void> {
  console.log(`Simulation : ${botCount} bots, ${rate} rapport(s)/s chacun, serveur ${values.url}`);
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
