import { describe, expect, it } from 'vitest';
import { remainingResetsText } from './hwid-resets.ts';

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
