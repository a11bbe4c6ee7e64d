import { describe, expect, it } from 'vitest';
import { replaceMinutes } from '../../../lib/socket/bot-cache.ts';
import { HOUR_MS, hourlySeries } from './mybot.ts';

describe('hourlySeries', () => {
  it('sums every account per hour over the last 24 hours and drops older points', () => {
    const now = Date.parse('2026-01-02T10:30:00Z');
    const point = (minute: string, gathered: number) => ({
      minute,
      account: 'a',
      gathered,
      treasures: 1,
      kamas: 2,
      xp: 3,
    });
    const series = hourlySeries(
      [
        point('2026-01-02T10:05:00Z', 4),
        { ...point('2026-01-02T10:25:00Z', 6), account: 'b' },
        point('2026-01-01T11:00:00Z', 7),
        point('2026-01-01T10:59:00Z', 100),
      ],
      now,
    );
    expect(series.hours).toHaveLength(24);
    expect(series.hours.at(-1)).toBe(Date.parse('2026-01-02T10:00:00Z') / 1000);
    expect((series.hours[1]! - series.hours[0]!) * 1000).toBe(HOUR_MS);
    expect(series.gathered.at(-1)).toBe(10);
    expect(series.treasures.at(-1)).toBe(2);
    expect(series.gathered[0]).toBe(7);
    expect(series.gathered.reduce((a, b) => a + b, 0)).toBe(17);
  });
});

describe('replaceMinutes', () => {
  const point = (minute: string, account: string, gathered: number) => ({
    minute,
    account,
    gathered,
    treasures: 0,
    kamas: 0,
    xp: 0,
  });

  it('puts a pushed minute in place of the one read (a total, never added), keeps the others, adds new ones', () => {
    const read = [point('2026-01-02T10:05:00Z', 'a', 4), point('2026-01-02T10:05:00Z', 'b', 1)];
    const pushed = [point('2026-01-02T10:05:00Z', 'a', 9), point('2026-01-02T10:06:00Z', 'a', 2)];
    expect(replaceMinutes(read, pushed)).toEqual([
      point('2026-01-02T10:05:00Z', 'a', 9),
      point('2026-01-02T10:05:00Z', 'b', 1),
      point('2026-01-02T10:06:00Z', 'a', 2),
    ]);
    // The same push twice changes nothing.
    expect(replaceMinutes(replaceMinutes(read, pushed), pushed)).toEqual(replaceMinutes(read, pushed));
  });
});
