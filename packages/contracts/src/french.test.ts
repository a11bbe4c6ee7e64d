import { describe, expect, it } from 'vitest';
import { countOf } from './french.ts';

describe('countOf', () => {
  it('takes the singular for 0 and 1, the plural from 2, and groups thousands', () => {
    expect(countOf(0, 'compte', 'comptes')).toBe('0 compte');
    expect(countOf(1, 'place utilisée', 'places utilisées')).toBe('1 place utilisée');
    expect(countOf(2, 'compte', 'comptes')).toBe('2 comptes');
    expect(countOf(12_500, 'compte', 'comptes').replace(/\s/g, ' ')).toBe('12 500 comptes');
  });
});
