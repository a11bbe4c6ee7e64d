import { describe, expect, it } from 'vitest';
import { isShownPaused } from './account-status.ts';

describe('account status under a paused bot', () => {
  it('shows a working account as paused, a stopped or failed one as it is', () => {
    expect(isShownPaused('banking', true)).toBe(true);
    expect(isShownPaused('gathering', true)).toBe(true);
    expect(isShownPaused('fighting', undefined)).toBe(false);
    expect(isShownPaused('fighting', false)).toBe(false);
    expect(isShownPaused('stopped', true)).toBe(false);
    expect(isShownPaused('error', true)).toBe(false);
  });
});
