// The bot-timeline module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { botTimelineRoutes } from './bot-timeline.routes.ts';
