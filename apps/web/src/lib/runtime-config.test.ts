import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from './runtime-config.ts';

describe('parseRuntimeConfig', () => {
  it('accepts the server shape', () => {
    const config = { apiBaseUrl: '/api', socketUrl: '', buildId: 'b1', buildCheckIntervalMs: 60000 };
    expect(parseRuntimeConfig(config)).toEqual(config);
  });

  it('refuses anything else', () => {
    expect(parseRuntimeConfig(null)).toBeUndefined();
    expect(parseRuntimeConfig({ apiBaseUrl: '/api' })).toBeUndefined();
    expect(
      parseRuntimeConfig({ apiBaseUrl: '/api', socketUrl: '', buildId: 'b', buildCheckIntervalMs: -1 }),
    ).toBeUndefined();
  });
});
