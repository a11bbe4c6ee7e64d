import type { HourlyPoint } from '@bot/contracts';

const HOUR_MS = 3_600_000;

/** A chart's bars: their starts in seconds (uPlot's unit) and their values. */
export interface Bars {
  times: number[];
  values: number[];
}

/** The last `hours` hours, the current one included, with 0 where the server sent no point. */
export function hourlyBars(points: HourlyPoint[], hours: number, now = Date.now()): Bars {
  const byHour = new Map(points.map((point) => [Date.parse(point.hour), point.value]));
  const current = Math.floor(now / HOUR_MS) * HOUR_MS;
  const times: number[] = [];
  const values: number[] = [];
  for (let index = hours - 1; index >= 0; index -= 1) {
    const start = current - index * HOUR_MS;
    times.push(start / 1000);
    values.push(byHour.get(start) ?? 0);
  }
  return { times, values };
}

/** Local midnight of the day holding `time`: days are the viewer's, in their time zone. */
function startOfLocalDay(time: number): number {
  const day = new Date(time);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** The last `days` days of the viewer's calendar, today included, each the sum of its hours. */
export function dailyBars(points: HourlyPoint[], days: number, now = Date.now()): Bars {
  const starts: number[] = [];
  let day = startOfLocalDay(now);
  for (let index = 0; index < days; index += 1) {
    starts.unshift(day);
    day = startOfLocalDay(day - 1); // the day before (23 or 25 hours across a clock change)
  }
  const sums = new Map(starts.map((start) => [start, 0]));
  for (const point of points) {
    const start = startOfLocalDay(Date.parse(point.hour));
    const sum = sums.get(start);
    if (sum !== undefined) sums.set(start, sum + point.value);
  }
  return { times: starts.map((start) => start / 1000), values: starts.map((start) => sums.get(start) ?? 0) };
}

/** The sum of the points in the last `hours` hours. */
export function totalSince(points: HourlyPoint[], hours: number, now = Date.now()): number {
  const from = Math.floor(now / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS;
  return points.reduce((sum, point) => (Date.parse(point.hour) >= from ? sum + point.value : sum), 0);
}
