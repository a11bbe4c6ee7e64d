import { type BotHistoryPoint, myBotAnswer } from '@bot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const myBotKeys = { bot: ['me', 'bot'] as const };

/** GET /me/bot: the bound hwid, the current state and the last 24 h of per-minute history. */
export const myBotQuery = queryOptions({
  queryKey: myBotKeys.bot,
  queryFn: async () =>
    (await api.get('/me/bot', { schema: myBotAnswer, fallback: 'Impossible de charger votre bot.' })).data,
  // Read once: the live state and the chart's minutes come from the socket (decision 013).
});

export const HOUR_MS = 3_600_000;
const CHART_HOURS = 24;

export interface HourlySeries {
  /** Start of each hour, unix seconds (uPlot's x axis). */
  hours: number[];
  gathered: number[];
  treasures: number[];
  kamas: number[];
  xp: number[];
}

/** Sums the per-minute history of every game account into the last 24 whole hours (empty hours are 0). */
export function hourlySeries(history: readonly BotHistoryPoint[], now = Date.now()): HourlySeries {
  const lastHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const firstHour = lastHour - (CHART_HOURS - 1) * HOUR_MS;
  const series: HourlySeries = { hours: [], gathered: [], treasures: [], kamas: [], xp: [] };
  for (let index = 0; index < CHART_HOURS; index++) {
    series.hours.push((firstHour + index * HOUR_MS) / 1000);
    series.gathered.push(0);
    series.treasures.push(0);
    series.kamas.push(0);
    series.xp.push(0);
  }
  for (const point of history) {
    const index = Math.floor((Date.parse(point.minute) - firstHour) / HOUR_MS);
    if (index < 0 || index >= CHART_HOURS) continue;
    series.gathered[index] = (series.gathered[index] ?? 0) + point.gathered;
    series.treasures[index] = (series.treasures[index] ?? 0) + point.treasures;
    series.kamas[index] = (series.kamas[index] ?? 0) + point.kamas;
    series.xp[index] = (series.xp[index] ?? 0) + point.xp;
  }
  return series;
}
