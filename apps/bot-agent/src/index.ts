export {
  type AnsweredEvent,
  BotApiError,
  type BotClient,
  type BotClientEvents,
  type BotClientOptions,
  createBotClient,
  type MessageRefusal,
} from './client.ts';
export {
  type BotCommandPayloads,
  type CommandHandler,
  type CommandOutcome,
  CommandRunner,
} from './commands.ts';
export {
  DEMO_AGENT_VERSION,
  DEMO_BOTS_FILE_VERSION,
  type DemoBot,
  type DemoBotsFile,
} from './demo-file.ts';
export {
  DEFAULT_HWID_PRODUCT_KEY,
  hashHwidComponents,
  type RawHwidComponents,
  readMachineComponents,
} from './hwid.ts';
export {
  entitlementsAt,
  hwidHash,
  LeaseError,
  type LeaseRefusal,
  LeaseVerifier,
  type LeaseVerifierOptions,
  type VerifiedLease,
} from './lease.ts';
export { realTimer, type SetTimer } from './lease-keeper.ts';
export { type AgentLogger, REDACTED } from './log.ts';
export { reconnectionDelay, useSpreadBackoff } from './reconnection.ts';
export { fetchBotRoutes, RouteFollower } from './routes.ts';
export { runSimulatedCommands } from './simulated-commands.ts';
export { assertSecureUrl, KeyTrust, type KeyTrustOptions, TrustError, type TrustRefusal } from './trust.ts';
export {
  AgentUpdates,
  compareVersions,
  UpdateError,
  type UpdateRefusal,
  type VerifiedUpdate,
} from './updates.ts';
export { mapIdOf, SimulatedBot, WORLD_RADIUS } from './world.ts';
