import { onlineBotsAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const USERS_ONLINE_BOTS = '/admin/users-online/bots';
export const USERS_ONLINE_SESSIONS = '/admin/users-online/sessions';
const usersOnlineKeys = {
  bot: (hwid: string) => ['admin', 'users-online', 'bot', hwid] as const,
};

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

/**
 * One connected bot's row, read again while its commands dialog is open (the page has no socket):
 * whether it is paused follows the commands it runs. Undefined once it left the list.
 */
export const onlineBotQuery = (hwid: string) =>
  queryOptions({
    queryKey: usersOnlineKeys.bot(hwid),
    queryFn: async () =>
      (
        await api.get(`${USERS_ONLINE_BOTS}?q=${encodeURIComponent(hwid)}`, {
          schema: onlineBotsAnswer,
          silent: true,
        })
      ).data.find((bot) => bot.hwid === hwid) ?? null,
    refetchInterval: USERS_ONLINE_REFRESH_MS,
  });
