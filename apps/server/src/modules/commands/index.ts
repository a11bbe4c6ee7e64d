// The commands module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export {
  acknowledgeCommand,
  type CommandToDeliver,
  commandsToDeliver,
  expireBotCommands,
  finishCommand,
  markCommandSent,
  pruneBotCommands,
} from './command-delivery.ts';
export { COMMAND_AUDIT_ACTIONS, commandTimelineEntries } from './command-timeline.ts';
export { commandsRoutes } from './commands.routes.ts';
export {
  BOT_STAFF_PERMISSIONS,
  boundHwidOf,
  endCommandsOfUnboundPc,
  maskStaff,
  ownerForStaff,
} from './commands.service.ts';
export { botCommands } from './commands.table.ts';
