// The bot-log module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { botLogRoutes } from './bot-log.routes.ts';
export {
  forgetBotLogOfPc,
  mayReadBotLog,
  type NewBotLogLine,
  purgeBotLog,
  recordBotLogLines,
} from './bot-log.service.ts';
