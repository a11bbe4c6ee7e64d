import { createApiClient } from './api-client.ts';
import { useAuthStore } from './auth-store.ts';
import { navigateTo } from './navigation.ts';
import { notifyError } from './notify.ts';
import { getRuntimeConfig } from './runtime-config.ts';

/** The app's API client (SPEC.md section 7): 401 on a call with a token logs out and goes to /login. */
export const api = createApiClient({
  getBaseUrl: () => getRuntimeConfig().apiBaseUrl,
  getToken: () => useAuthStore.getState().token,
  notifyError,
  onUnauthorized: (error) => {
    if (!useAuthStore.getState().token) return;
    useAuthStore.getState().clearSession();
    notifyError(error.message);
    void navigateTo('/login', { replace: true });
  },
});
