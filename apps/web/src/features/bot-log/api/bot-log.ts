import { botLogAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Whose journal: the signed-in customer's own bot, or staff reading any bot. */
export type BotLogScope = 'me' | 'staff';

const botLogKeys = {
  of: (scope: BotLogScope, hwid: string) => ['bot-log', scope, hwid] as const,
};

/** GET /me/bot/log or /admin/bots/:hwid/log: the last lines the server kept, oldest first. */
export const botLogQuery = (scope: BotLogScope, hwid: string) =>
  queryOptions({
    queryKey: botLogKeys.of(scope, hwid),
    queryFn: () =>
      api.get(scope === 'me' ? '/me/bot/log' : `/admin/bots/${encodeURIComponent(hwid)}/log`, {
        schema: botLogAnswer,
        fallback: 'Impossible de charger le journal du bot.',
      }),
    // The tail comes over the journal's socket; what was kept is read again on each opening.
    staleTime: 0,
    gcTime: 0,
  });
