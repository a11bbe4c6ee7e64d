import { BotApiError, createBotClient, readMachineComponents, SimulatedBot } from '@bot/bot-agent';

/**
 * The TypeScript SDK as an agent of the conformance kit's contract (apps/bot-agent/README.md,
 * "Conformance kit"): configured from the environment, it reports its whitelisted accounts from a
 * simulated world, takes the SDK's command and log handling as they are, downloads a build it is
 * told to go back to, and exits 2 when refused for good, 3 when the platform is not trusted.
 */
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`Variable manquante : ${name}`);
  return value;
};

const client = createBotClient({
  serverUrl: env('BOT_PLATFORM_URL'),
  accessKey: env('BOT_ACCESS_KEY'),
  hwid: env('BOT_HWID'),
  trustRoot: JSON.parse(env('BOT_TRUST_ROOT')),
  components: readMachineComponents(),
  version: process.env.BOT_VERSION ?? '1.0.0',
  keepAliveMs: 2_000,
});

function exit(error: Error): never {
  console.error(`Arrêt : ${error.message} (${(error as BotApiError).code ?? 'erreur'})`);
  process.exit(error instanceof BotApiError && !error.code.startsWith('LEASE_') ? 2 : 3);
}

client.on('fatal', exit);
client.on('error', (error) => console.error(`[warn] ${error.message}`));
client.on('refused', (refusal) =>
  console.error(`[refus] ${refusal.event} : ${refusal.code} ${refusal.error}`),
);
client.on('updateAvailable', (update) => {
  if (!update.rollback) return;
  client.downloadUpdate().then(
    () => client.log.warn(`Version retirée : retour à ${update.version} téléchargé et vérifié.`),
    (error: Error) => client.log.warn(`Retour à ${update.version} impossible : ${error.message}`),
  );
});
for (const kind of ['pause', 'resume', 'configure', 'stopAccount'] as const)
  client.onCommand(kind, () => undefined);
process.on('SIGTERM', () => void client.stop().then(() => process.exit(0)));

client.log.info('Agent TypeScript démarré.');
await client.connect().catch(exit);
const world = new SimulatedBot(client.hwid, [...client.whitelist]);
const timer = setInterval(() => client.report(world.tick()), 2_000);
client.report(world.tick());
client.on('fatal', () => clearInterval(timer));
