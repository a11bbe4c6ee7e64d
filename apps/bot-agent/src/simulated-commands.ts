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
  client.onCommand('pause', () => {
    paused = true;
    return undefined;
  });
  client.onCommand('resume', () => {
    paused = false;
    return undefined;
  });
  client.onCommand('restart', () => {
    setTimeout(() => client.reconnect(), RESTART_DELAY_MS);
    return undefined;
  });
  client.onCommand('stopAccount', ({ account }) =>
    world.stopAccount(account) ? undefined : { ok: false, message: `Compte de jeu inconnu : ${account}` },
  );
  client.onCommand('configure', (configuration) => {
    world.configure(configuration);
    return undefined;
  });
  return { isPaused: () => paused };
}
