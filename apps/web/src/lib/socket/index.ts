import { useAuthStore } from '../auth-store.ts';
import { LIVE_EVENTS } from '../live-events.ts';
import { getRuntimeConfig } from '../runtime-config.ts';
import { createSocketClient } from './socket-client.ts';

export * from './bot-cache.ts';
export * from './fleet-cache.ts';
export * from './live-keys.ts';
export * from './socket-client.ts';

/** The app's socket client: URL from /config.json (`socketUrl` '' = same origin), token from the auth store. */
export const socketClient = createSocketClient({
  getUrl: () => getRuntimeConfig().socketUrl,
  getToken: () => useAuthStore.getState().token,
  // Settings pushed live: the public settings sync re-reads them (snow, banner, maintenance).
  onSettingsUpdate: () => window.dispatchEvent(new Event(LIVE_EVENTS.publicSettingsRefresh)),
  // New notifications: the header's bell counts again at once.
  onNotification: () => window.dispatchEvent(new Event(LIVE_EVENTS.notificationsRefresh)),
});

// A session that ends closes every socket it opened.
useAuthStore.subscribe((state, previous) => {
  if (previous.token && state.token !== previous.token) socketClient.disconnectAll();
});
