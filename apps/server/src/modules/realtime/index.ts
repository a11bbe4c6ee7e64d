// The realtime module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { RedisBotStateStore } from './bot-state-store.redis.ts';
export { protocolDocsRoutes } from './protocol-docs.routes.ts';
export { createRealtimeHub } from './realtime.hub.ts';
