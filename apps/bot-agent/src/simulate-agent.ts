/**
 * One simulated bot configured as the conformance kit's contract (apps/bot-agent/README.md,
 * "Conformance kit"): `npm run simulate:agent`, with BOT_PLATFORM_URL, BOT_ACCESS_KEY, BOT_HWID,
 * BOT_TRUST_ROOT and BOT_VERSION in the environment. It is the simulator's bot (`npm run simulate`
 * plays many from the seed's file): the same world, remote commands and log lines, so the kit proves
 * what the simulator does. It exits 2 when the platform refuses it for good, 3 when the platform is
 * not trusted or its lease ran out, 0 on SIGTERM.
 */
import type { BotReport } from '@bot/contracts';
import type { JWK } from 'jose';
import { BotApiError, createBotClient } from './client.ts';
import { readMachineComponents } from './hwid.ts';
import { logActivity } from './simulated-activity.ts';
import { runSimulatedCommands } from './simulated-commands.ts';
import { SimulatedBot } from './world.ts';

const REPORT_PERIOD_MS = 2_000;

function required(name: string): string {
  const value = process.env[name];
  if (value) return value;
  console.error(`Variable d’environnement manquante : ${name}`);
  process.exit(1);
}

const client = createBotClient({
  serverUrl: required('BOT_PLATFORM_URL'),
  accessKey: required('BOT_ACCESS_KEY'),
  hwid: required('BOT_HWID'),
  trustRoot: JSON.parse(required('BOT_TRUST_ROOT')) as JWK,
  components: readMachineComponents(),
  version: process.env.BOT_VERSION ?? '1.0.0',
});

/** A refusal for good (banned, outdated, revoked) is 2; a platform it cannot trust, or no lease left, 3. */
function stop(error: Error): never {
  const code = (error as BotApiError).code ?? 'erreur';
  console.error(`Arrêt du bot simulé : ${code} ${error.message}`);
  process.exit(error instanceof BotApiError && !code.startsWith('LEASE_') ? 2 : 3);
}

client.on('fatal', stop);
client.on('error', (error) => console.error(`[avertissement] ${error.message}`));
client.on('refused', ({ event, code, error }) => console.error(`[refus] ${event} : ${code} ${error}`));
client.on('updateAvailable', (update) => {
  if (!update.rollback) return;
  // A withdrawn build: go back to the version the platform names, downloaded and verified.
  client.downloadUpdate().then(
    () => client.log.warn(`Version retirée : retour à la ${update.version} téléchargé et vérifié.`),
    (error: Error) => client.log.warn(`Retour à la ${update.version} impossible : ${error.message}`),
  );
});
process.on('SIGTERM', () => void client.stop().then(() => process.exit(0)));

await client.connect().catch(stop);
const world = new SimulatedBot(client.hwid, [...client.whitelist]);
const commands = runSimulatedCommands(client, world);
let previous: BotReport | undefined;
setInterval(() => {
  // A paused bot's world stands still; the SDK's keep-alive says it is paused.
  if (commands.isPaused()) return;
  const report = world.tick();
  logActivity(client, report, previous);
  previous = report;
  client.report(report);
}, REPORT_PERIOD_MS);
