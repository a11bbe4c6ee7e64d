import { type BotTimeline, botTimelineAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { liveKeys } from '../../../lib/socket/live-keys.ts';

const fallback = 'Impossible de charger l’historique du bot.';

/** The signed-in customer's bot (their PC, or the last one they had). */
export const timelineKeys = {
  /** The sockets read them again when a command of the bot changes state (`liveKeys`). */
  mine: liveKeys.myTimeline,
  /** Every PC's timeline staff have open (refreshed after an action on a user). */
  staffViews: ['admin', 'bots'] as const,
  ofBot: liveKeys.botTimeline,
};

export const myBotTimelineQuery = queryOptions({
  queryKey: timelineKeys.mine,
  queryFn: async (): Promise<BotTimeline> =>
    (await api.get('/me/bot/timeline', { schema: botTimelineAnswer, fallback })).data,
  refetchInterval: 60_000,
});

/** Any PC's bot, for staff. */
export function botTimelineQuery(hwid: string) {
  return queryOptions({
    queryKey: timelineKeys.ofBot(hwid),
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
