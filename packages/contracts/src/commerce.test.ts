import { describe, expect, it } from 'vitest';
import { formatPrice, packageInput } from './catalog.ts';
import { discountOf, voucherCodeSchema, voucherInput, voucherProblems } from './vouchers.ts';
import { gameAccountNameSchema } from './whitelist.ts';

describe('discountOf', () => {
  it('rounds percentages to the cent and never exceeds the price', () => {
    expect(discountOf({ kind: 'percent', percentOff: 15, amountOffCents: null }, 999)).toBe(150);
    expect(discountOf({ kind: 'percent', percentOff: 100, amountOffCents: null }, 999)).toBe(999);
    expect(discountOf({ kind: 'fixed', percentOff: null, amountOffCents: 500 }, 300)).toBe(300);
    expect(discountOf({ kind: 'fixed', percentOff: null, amountOffCents: 500 }, 1999)).toBe(500);
    expect(discountOf({ kind: 'gift', percentOff: null, amountOffCents: null }, 1999)).toBe(1999);
  });
});

describe('voucher rules', () => {
  it('names the missing value of each kind and inverted dates', () => {
    expect(voucherProblems({ kind: 'percent' }).map((p) => p.path)).toEqual(['percentOff']);
    expect(voucherProblems({ kind: 'fixed' }).map((p) => p.path)).toEqual(['amountOffCents']);
    expect(voucherProblems({ kind: 'gift' }).map((p) => p.path)).toEqual(['packageId']);
    expect(
      voucherProblems({
        kind: 'percent',
        percentOff: 5,
        startsAt: '2030-02-01T00:00:00Z',
        endsAt: '2030-01-01T00:00:00Z',
      }),
    ).toEqual([{ path: 'endsAt', message: 'La fin doit suivre le début.' }]);
    expect(voucherInput.safeParse({ kind: 'percent', percentOff: 5 }).success).toBe(true);
  });

  it('upper-cases typed codes and refuses odd characters', () => {
    expect(voucherCodeSchema.parse(' noel-2026 ')).toBe('NOEL-2026');
    expect(voucherCodeSchema.safeParse('noël').success).toBe(false);
    expect(voucherCodeSchema.safeParse('abc').success).toBe(false);
  });
});

describe('packages and whitelist', () => {
  it('formats euros the French way', () => {
    expect(formatPrice(1990).replace(/\s/g, ' ')).toBe('19,90 €');
  });

  it('accepts only bot permissions as grants', () => {
    const base = { name: 'Offre', priceCents: 100, durationDays: 30, whitelistSlots: 1 };
    expect(packageInput.safeParse({ ...base, grants: ['can_useTreasure'] }).success).toBe(true);
    expect(packageInput.safeParse({ ...base, grants: ['can_manageUsers'] }).success).toBe(false);
  });

  it('accepts game account names with letters, digits and - _ . spaces', () => {
    for (const name of ['Iop-Feu', 'Éni_Eau 2', "L'Ouginak"])
      expect(gameAccountNameSchema.safeParse(name).success).toBe(true);
    for (const name of ['a', '<b>', '-start', 'x'.repeat(41)])
      expect(gameAccountNameSchema.safeParse(name).success).toBe(false);
  });
});
