import type { PublicSettings } from '@bot/contracts';
import { create } from 'zustand';
import { api } from '../../../lib/api.ts';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { LIVE_EVENTS } from '../../../lib/live-events.ts';

/**
 * GET /settings/public, read field by field (no zod in the entry chunk); missing fields mean "off".
 * Public pages keep these few values in a small store instead of TanStack Query, whose client only
 * loads with the account and admin areas (docs/decisions/103).
 */
async function fetchPublicSettings(): Promise<PublicSettings> {
  const raw =
    (await api.get<Partial<Record<keyof PublicSettings, unknown>>>('/settings/public', { silent: true })) ??
    {};
  return {
    isSnow: raw.isSnow === true,
    registrationOpen: raw.registrationOpen !== false,
    maintenanceMode: raw.maintenanceMode === true,
    maintenanceMessage: typeof raw.maintenanceMessage === 'string' ? raw.maintenanceMessage : '',
    announcement: typeof raw.announcement === 'string' ? raw.announcement : '',
    hwidResetCooldownHours: typeof raw.hwidResetCooldownHours === 'number' ? raw.hwidResetCooldownHours : 24,
    maintenanceWindow: runningMaintenanceOf(raw.maintenanceWindow),
  };
}

/** The maintenance window running now (decision 907), read field by field like the rest. */
function runningMaintenanceOf(raw: unknown): PublicSettings['maintenanceWindow'] {
  if (typeof raw !== 'object' || raw === null) return null;
  const { message, endsAt } = raw as Record<string, unknown>;
  return typeof message === 'string' && typeof endsAt === 'string' ? { message, endsAt } : null;
}

export const usePublicSettings = create<{ settings: PublicSettings | undefined }>(() => ({
  settings: undefined,
}));

/** Loads the public settings once at start; `isSnow` also goes to the persisted auth state (docs/specification.md §6). */
async function loadPublicSettings(): Promise<void> {
  try {
    const settings = await fetchPublicSettings();
    usePublicSettings.setState({ settings });
    useAuthStore.getState().setSnow(settings.isSnow);
  } catch {
    // Public settings are comfort: without them the site works with everything off.
  }
}

/**
 * How often open pages re-read the public settings: most pages hold no socket to be told at once
 * (a cancelled maintenance window stayed on a customer's account page for up to 30 s). One read
 * costs the server about 20 µs from its cache.
 */
const PUBLIC_SETTINGS_POLL_MS = 10_000;
/** Dispatched on `window` by a page that just changed the settings (the admin settings page). */

/**
 * Loads the public settings now, then keeps them fresh: every 10 s, when the tab comes back, and
 * on demand (`LIVE_EVENTS.publicSettingsRefresh`). Snow, banner and maintenance follow without a reload.
 */
export function startPublicSettingsSync(intervalMs = PUBLIC_SETTINGS_POLL_MS): () => void {
  void loadPublicSettings();
  const refresh = () => void loadPublicSettings();
  const onVisible = () => {
    if (document.visibilityState === 'visible') refresh();
  };
  const timer = setInterval(refresh, intervalMs);
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener(LIVE_EVENTS.publicSettingsRefresh, refresh);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener(LIVE_EVENTS.publicSettingsRefresh, refresh);
  };
}
