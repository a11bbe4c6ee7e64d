import { describe, expect, it } from 'vitest';
import { diffValues, formatValue, summarizeDiff } from './audit-diff.ts';

describe('audit diff', () => {
  it('lists added, removed and changed fields', () => {
    const lines = diffValues({ isSnow: false, a: 1, gone: 'x' }, { isSnow: true, a: 1, added: ['r'] });
    expect(lines).toEqual([
      { key: 'isSnow', before: false, after: true, kind: 'changed' },
      { key: 'a', before: 1, after: 1, kind: 'same' },
      { key: 'gone', before: 'x', after: undefined, kind: 'removed' },
      { key: 'added', before: undefined, after: ['r'], kind: 'added' },
    ]);
    expect(diffValues(null, null)).toEqual([]);
    expect(diffValues(null, { hwid: null })).toEqual([
      { key: 'hwid', before: undefined, after: null, kind: 'same' },
    ]);
  });

  it('summarises in French', () => {
    expect(summarizeDiff({ isSnow: false }, { isSnow: true })).toBe('isSnow: non → oui');
    expect(summarizeDiff(null, { roles: [] })).toBe('roles: aucun');
    expect(summarizeDiff(null, null)).toBe('');
    expect(formatValue('')).toBe('« »');
    expect(formatValue(['a', 'b'])).toBe('a, b');
  });
});
