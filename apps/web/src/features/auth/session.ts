import type { LoginInput } from '@bot/contracts';
import { useAuthStore } from '../../lib/auth-store.ts';
import { navigateTo } from '../../lib/navigation.ts';
import { login } from './api/login.ts';
import { logout } from './api/logout.ts';
import { fetchMeInfo } from './api/me-info.ts';
import { fetchMyPermissions } from './api/me-permissions.ts';

/** SPEC.md section 4: login sets user and token, then loads permissions, then user info. */
export async function signIn(input: LoginInput) {
  const { user, token } = await login(input);
  const store = useAuthStore.getState();
  store.setSession({ user, token });
  const permissions = await fetchMyPermissions().catch(() => []);
  useAuthStore.getState().setPermissions(permissions);
  const info = await fetchMeInfo().catch(() => undefined);
  if (info) useAuthStore.getState().setUser(info);
  return useAuthStore.getState().user ?? user;
}

/** Logout clears user, token and access token and navigates to / (the server session is revoked too). */
export async function signOut() {
  const token = useAuthStore.getState().token;
  // Leave the account area first, so none of its queries runs again without a token.
  await navigateTo('/', { replace: true });
  useAuthStore.getState().clearSession();
  if (token) await logout(token).catch(() => undefined);
}
