// The bots module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { BotEventRecorder, lastConnectionEvent, pruneBotEvents, timelineHwidOf } from './bot-events.ts';
export { botOverviewOf, listPcsOfUser } from './bot-overview.ts';
export { ActivityRecorder, pruneBotHistory } from './bots.history.ts';
export { botRoutes } from './bots.routes.ts';
export {
  findAllowedAccounts,
  findAllowedAccountsOfUsers,
  findBotSessionByToken,
  findBotSessionEnds,
  findBotSessionsByTokens,
  isOutdatedAgent,
  type LiveBotSession,
  openBotSession,
  outdatedAgentDetails,
  pruneBotSessions,
  revokeBotSessions,
  unbindPc,
} from './bots.service.ts';
export { botActivityMinutes, botEvents, botSessions } from './bots.table.ts';
export { pushedLeaseOf } from './lease-renewal.ts';
