import type { BotClient } from './client.ts';
import type { SimulatedBot } from './world.ts';

/** How long a restarting agent waits for its result to leave before it drops the connection. */
const RESTART_DELAY_MS = 50;

/**
 * The simulator's answers to remote commands (decision 208): pause freezes its world until resume
 * (the SDK keeps re-sending the last report, marked `paused`, so the bot stays online and paused),
 * restart reconnects, stopAccount stops that account, configure changes the route of its accounts.
 * Answers `isPaused` for the report loop.
 */
export function runSimulatedCommands(client: BotClient, world: SimulatedBot): { isPaused(): boolean } {
  let paused = false;
  // Each command is written to the agent's log, as a real agent would ("Journal du bot", decision 209).
  client.onCommand('pause', () => {
    paused = true;
    client.log.info('Commande reçue : pause. Les comptes de jeu attendent.');
    return undefined;
  });
  client.onCommand('resume', () => {
    paused = false;
    client.log.info('Commande reçue : reprise.');
    return undefined;
  });
  client.onCommand('restart', () => {
    client.log.warn('Commande reçue : redémarrage de l’agent.');
    setTimeout(() => client.reconnect(), RESTART_DELAY_MS);
    return undefined;
  });
  client.onCommand('stopAccount', ({ account }) => {
    if (world.stopAccount(account)) {
      client.log.warn(`Commande reçue : arrêt du compte ${account}.`);
      return undefined;
    }
    client.log.error(`Commande refusée : compte de jeu inconnu (${account}).`);
    return { ok: false, message: `Compte de jeu inconnu : ${account}` };
  });
  client.onCommand('configure', (configuration) => {
    world.configure(configuration);
    client.log.info(`Nouvelle configuration : route ${configuration.routeId ?? 'inchangée'}.`);
    return undefined;
  });
  return { isPaused: () => paused };
}
