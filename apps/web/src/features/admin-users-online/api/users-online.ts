import { api } from '../../../lib/api.ts';

export const USERS_ONLINE_BOTS = '/admin/users-online/bots';
export const USERS_ONLINE_SESSIONS = '/admin/users-online/sessions';
/** The lists refresh this often while the page is open. */
export const USERS_ONLINE_REFRESH_MS = 3_000;

export function kickBot(hwid: string) {
  return api.post(
    `${USERS_ONLINE_BOTS}/${encodeURIComponent(hwid)}/kick`,
    {},
    { fallback: 'Impossible de déconnecter ce bot.' },
  );
}

export function revokeSession(id: string) {
  return api.post(
    `${USERS_ONLINE_SESSIONS}/${encodeURIComponent(id)}/revoke`,
    {},
    { fallback: 'Impossible de fermer cette session.' },
  );
}
