import { describe, expect, it } from 'vitest';
import {
  countedChangeNote,
  remainingAfterUnbindText,
  remainingResetsText,
  unbindBlockedUntil,
} from './hwid-resets.ts';

describe('the unbinds left, told before one is used', () => {
  it('says how many remain, in French with its plural', () => {
    expect(remainingResetsText(2, 30)).toBe('2 déliaisons restantes sur 30 jours.');
    expect(remainingResetsText(1, 30)).toBe('1 déliaison restante sur 30 jours.');
  });

  it('sends the customer to support when none is left', () => {
    expect(remainingResetsText(0, 30)).toBe(
      'Plus aucune déliaison possible sur 30 jours : contactez le support.',
    );
  });
});

describe('the PC card after an unbind or a counted PC change (issue 43)', () => {
  it('states the rule as it is: free while more than half of the parts as bound are kept', () => {
    expect(countedChangeNote()).toContain('au moins 3 de ses 5 composants tels que liés (jusqu’à 2 changés)');
    expect(countedChangeNote()).not.toContain('un seul composant');
    expect(countedChangeNote(4)).toContain('au moins 3 de ses 4 composants');
  });

  it('blocks the unbind until the next possible date while the cooldown runs, and not after', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    const next = '2026-11-29T09:00:00.000Z';
    expect(unbindBlockedUntil({ remaining: 2, nextResetAt: next }, now)?.toISOString()).toBe(next);
    expect(unbindBlockedUntil({ remaining: 2, nextResetAt: '2026-11-28T10:00:00.000Z' }, now)).toBeNull();
    expect(unbindBlockedUntil({ remaining: 0, nextResetAt: next }, now)?.toISOString()).toBe(next);
  });

  it('says what will be left after an unbind, with its plural', () => {
    expect(remainingAfterUnbindText(2, 30)).toBe('Il vous restera 1 déliaison sur 30 jours.');
    expect(remainingAfterUnbindText(3, 30)).toBe('Il vous restera 2 déliaisons sur 30 jours.');
  });
});
