import { type BotTimeline, botTimelineAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

const fallback = 'Impossible de charger l’historique du bot.';

/** The signed-in customer's bot (their PC, or the last one they had). */
export const myBotTimelineQuery = queryOptions({
  queryKey: ['me', 'bot', 'timeline'],
  queryFn: async (): Promise<BotTimeline> =>
    (await api.get('/me/bot/timeline', { schema: botTimelineAnswer, fallback })).data,
  refetchInterval: 60_000,
});

/** Any PC's bot, for staff. */
export function botTimelineQuery(hwid: string) {
  return queryOptions({
    queryKey: ['admin', 'bots', hwid, 'timeline'],
    queryFn: async (): Promise<BotTimeline> =>
      (
        await api.get(`/admin/bots/${encodeURIComponent(hwid)}/timeline`, {
          schema: botTimelineAnswer,
          fallback,
        })
      ).data,
    refetchInterval: 60_000,
  });
}
