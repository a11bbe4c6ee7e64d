import { z } from 'zod';
import { isoDateTime } from './dates.ts';

/**
 * Scheduled maintenance windows (decision 907): staff announce a period during which the alerts the
 * platform itself causes are muted, and the site banner shows the window's message.
 *  - `all`: the fleet alerts (staff) and the customers' bot alerts (bot offline, game account in error);
 *  - `fleet`: the fleet alerts only (the customers are still told about their bot).
 * The account's own alerts (package ending, payments) are never muted: a window does not cause them.
 */
export const MAINTENANCE_SCOPES = ['all', 'fleet'] as const;
export type MaintenanceScope = (typeof MAINTENANCE_SCOPES)[number];

export const MAINTENANCE_SCOPE_LABELS: Record<MaintenanceScope, string> = {
  all: 'Toutes les alertes causées par la plateforme (flotte et bots des clients)',
  fleet: 'Les alertes de la flotte seulement',
};

/** A window lasts at most a week (a longer one is a mistake, or a mode rather than a window). */
export const MAINTENANCE_WINDOW_MAX_HOURS = 7 * 24;

const MESSAGE = 'Entre 1 et 500 caractères.';
const dateTime = isoDateTime('Date et heure attendues (ISO 8601).');

export const maintenanceWindowInput = z.strictObject({
  startsAt: dateTime,
  endsAt: dateTime,
  message: z.string().trim().min(1, MESSAGE).max(500, MESSAGE),
  scope: z.enum(MAINTENANCE_SCOPES),
});
export type MaintenanceWindowInput = z.infer<typeof maintenanceWindowInput>;

export const MAINTENANCE_WINDOW_STATES = ['scheduled', 'running', 'ended', 'cancelled'] as const;
export type MaintenanceWindowState = (typeof MAINTENANCE_WINDOW_STATES)[number];

export const MAINTENANCE_WINDOW_STATE_LABELS: Record<MaintenanceWindowState, string> = {
  scheduled: 'Prévue',
  running: 'En cours',
  ended: 'Terminée',
  cancelled: 'Annulée',
};

export const maintenanceWindowSchema = z.object({
  id: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  message: z.string(),
  scope: z.enum(MAINTENANCE_SCOPES),
  state: z.enum(MAINTENANCE_WINDOW_STATES),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

export const maintenanceWindowsAnswer = z.object({ data: z.array(maintenanceWindowSchema) });
export type MaintenanceWindowsAnswer = z.infer<typeof maintenanceWindowsAnswer>;
export const maintenanceWindowAnswer = z.object({ data: maintenanceWindowSchema });

/** What the public settings carry while a window runs: the banner shows it by itself. */
export const runningMaintenanceSchema = z.object({ message: z.string(), endsAt: z.string() }).nullable();
export type RunningMaintenance = z.infer<typeof runningMaintenanceSchema>;
