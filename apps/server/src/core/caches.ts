import type { MaintenanceScope, Permission, SiteSettings, User } from '@bot/contracts';
import type { LRUCache } from 'lru-cache';
import type { CachedRead } from './cached-read.ts';
import type { AuthenticatedSession } from './guards.ts';

// The caches the context carries for the modules (`ctx.sessionCache`…), declared here so
// that `context.ts` imports no module: every module imports the context, and a module it imported
// back would close a cycle (decision 010). Each module builds and reads its own (app.ts wires them).

/** The sessions a node has recently checked, and when it last recorded their activity (auth). */
export interface SessionCache {
  byTokenHash: LRUCache<string, AuthenticatedSession>;
  /** Session ids whose `last_seen_at` was written less than a minute ago. */
  recentlyTouched: LRUCache<string, true>;
  /** Session ids whose `last_seen_at` the next touch statement writes, and when it runs. */
  toTouch: Set<string>;
  touchTimer?: NodeJS.Timeout;
}

/** A user's permissions, per user id (access). */
export type PermissionCache = LRUCache<string, Permission[]>;

/** The signed-in user's own object, per user id (access). */
export type UserCache = LRUCache<string, User>;

/** The site's settings (settings). */
export type SettingsCache = CachedRead<SiteSettings>;

/** A `maintenance_windows` row, as the maintenance cache holds the windows not over yet. */
interface StoredMaintenanceWindow {
  id: string;
  startsAt: Date;
  endsAt: Date;
  message: string;
  scope: MaintenanceScope;
  createdById: string | null;
  createdAt: Date;
  cancelledAt: Date | null;
}

/** The maintenance windows not over yet (maintenance-windows). */
export type MaintenanceCache = CachedRead<StoredMaintenanceWindow[]>;
