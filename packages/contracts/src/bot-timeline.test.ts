import { describe, expect, it } from 'vitest';
import { durationOf } from './bot-timeline.ts';

describe('durationOf', () => {
  it('says a duration in the unit people use', () => {
    expect(durationOf(0)).toBe('0 s');
    expect(durationOf(59.6)).toBe('1 min');
    expect(durationOf(45)).toBe('45 s');
    expect(durationOf(12 * 60 + 30)).toBe('12 min');
    expect(durationOf(2 * 3600 + 5 * 60)).toBe('2 h 05 min');
    expect(durationOf(3 * 86_400 + 4 * 3600 + 59)).toBe('3 j 4 h');
  });
});
