import { type LoginAnswer, type LoginInput, successAnswer } from '@bot/contracts';
import { api } from '../../lib/api.ts';
import { useAuthStore } from '../../lib/auth-store.ts';
import { navigateTo } from '../../lib/navigation.ts';
import { login } from './api/login.ts';
import { logout } from './api/logout.ts';
import { fetchMeInfo } from './api/me-info.ts';
import { fetchMyPermissions } from './api/me-permissions.ts';

/** A sign-in that gave its password and waits for the two-factor code; nothing is stored yet. */
export type PendingSignIn = Pick<LoginAnswer, 'user' | 'token'>;

/**
 * docs/specification.md §6: login sets user and token, then loads permissions, then user info. With
 * two-factor on, the answer is a pending sign-in the page completes with `completeSecondFactor`.
 */
export async function signIn(input: LoginInput): Promise<PendingSignIn | null> {
  const { user, token, secondFactorRequired } = await login(input);
  if (secondFactorRequired) return { user, token };
  await storeSession({ user, token });
  return null;
}

/** Second step: the six digits of the authenticator app, or a recovery code. */
export async function completeSecondFactor(pending: PendingSignIn, code: string): Promise<void> {
  await api.post(
    '/auth/second-factor',
    { code },
    { schema: successAnswer, fallback: 'Code refusé.', silent: true, token: pending.token },
  );
  await storeSession(pending);
}

/** Leaves a sign-in at the code step: its half-open session is closed on the server. */
export function abandonSignIn(pending: PendingSignIn): Promise<void> {
  return logout(pending.token).then(
    () => undefined,
    () => undefined,
  );
}

async function storeSession(session: PendingSignIn): Promise<void> {
  useAuthStore.getState().setSession(session);
  const permissions = await fetchMyPermissions().catch(() => []);
  useAuthStore.getState().setPermissions(permissions);
  const info = await fetchMeInfo().catch(() => undefined);
  if (info) useAuthStore.getState().setUser(info);
}

/** Logout clears user, token and access token and navigates to / (the server session is revoked too). */
export async function signOut() {
  const token = useAuthStore.getState().token;
  // Leave the account area first, so none of its queries runs again without a token.
  await navigateTo('/', { replace: true });
  useAuthStore.getState().clearSession();
  if (token) await logout(token).catch(() => undefined);
}
