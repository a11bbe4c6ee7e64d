import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './iso-time.ts';

describe('isoTimestamp', () => {
  it('answers as Date#toISOString for any instant, in any order', () => {
    const instant = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 0, 1, 0, 0, 3) }),
    );
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves fractions of a millisecond and instants out of range to toISOString', () => {
    expect(isoTimestamp(1500.7)).toBe(new Date(1500.7).toISOString());
    expect(isoTimestamp(-0.5)).toBe(new Date(-0.5).toISOString());
    expect(() => isoTimestamp(8.64e15 + 1)).toThrow(RangeError);
  });
});
