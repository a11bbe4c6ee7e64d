import { createApiClient } from './api-client.ts';
import { useAuthStore } from './auth-store.ts';
import { navigateTo } from './navigation.ts';
import { notifyError } from './notify.ts';
import { whenRuntimeConfig } from './runtime-config.ts';

/** The app's API client (docs/specification.md §4): 401 on a call with a token logs out and goes to /login. */
export const api = createApiClient({
  // The first calls may start while /config.json is still on its way (main.tsx does not wait for it).
  getBaseUrl: async () => (await whenRuntimeConfig()).apiBaseUrl,
  getToken: () => useAuthStore.getState().token,
  notifyError,
  onUnauthorized: (error) => {
    if (!useAuthStore.getState().token) return;
    useAuthStore.getState().clearSession();
    notifyError(error.message);
    void navigateTo('/login', { replace: true });
  },
});
