// The alerts module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export { evaluateAlerts } from './alert-evaluator.ts';
export { alertsRoutes, fleetAlertsRoutes } from './alerts.routes.ts';
export { getAlertPreferences, saveAlertPreferences } from './alerts.service.ts';
export { alertIncidents, alertPreferences, discordOutbox } from './alerts.table.ts';
export { emailChannelHealth } from './channel-health.ts';
export { createDiscordOutbox, pruneSentDiscordMessages } from './discord-outbox.ts';
export { resealDiscordWebhooks, sealClearDiscordWebhooks } from './discord-webhooks.ts';
export { pruneNotifications } from './notifications-pruning.ts';
