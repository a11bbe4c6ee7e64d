import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyBars, hourlyBars, totalSince } from './time-series.ts';

const HOUR = 3_600_000;
// The viewer's time zone decides the days: Paris, on the day its clocks go forward (a 23-hour day).
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Paris';
});
afterAll(() => {
  process.env.TZ = zone;
});
const now = Date.parse('2026-03-29T10:20:00Z'); // the day clocks go forward in Paris
const hour = (hoursAgo: number) => new Date(Math.floor(now / HOUR) * HOUR - hoursAgo * HOUR).toISOString();

describe('chart bars from hourly points', () => {
  it('fills the hours without a point with zero, oldest first, the current hour last', () => {
    const bars = hourlyBars(
      [
        { hour: hour(0), value: 4 },
        { hour: hour(2), value: 1 },
      ],
      4,
      now,
    );
    expect(bars.values).toEqual([0, 1, 0, 4]);
    expect(bars.times.at(-1)).toBe(Date.parse(hour(0)) / 1000);
    expect(bars.times[1]! - bars.times[0]!).toBe(3600);
  });

  it("groups hours into the viewer's days, today last", () => {
    const bars = dailyBars(
      [
        { hour: hour(0), value: 3 },
        { hour: hour(1), value: 2 },
        { hour: hour(30), value: 5 },
        { hour: hour(24 * 10), value: 7 }, // outside a 3-day chart
      ],
      3,
      now,
    );
    // 12:00 and 11:00 in Paris today; 06:00 yesterday; nothing the day before.
    expect(bars.values).toEqual([0, 5, 5]);
    for (const time of bars.times) expect(new Date(time * 1000).getHours()).toBe(0); // local midnights
  });

  it('adds up the last hours for a figure', () => {
    const points = [
      { hour: hour(0), value: 1 },
      { hour: hour(6), value: 2 },
      { hour: hour(7), value: 4 },
    ];
    expect(totalSince(points, 7, now)).toBe(3);
    expect(totalSince(points, 8, now)).toBe(7);
  });
});
