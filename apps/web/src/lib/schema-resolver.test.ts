import { loginInput, registerInput } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { schemaResolver } from './schema-resolver.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as never;

describe('schemaResolver over the contracts schemas', () => {
  it('passes valid values through the schema (trimmed)', async () => {
    const result = await schemaResolver(loginInput)(
      { username: '  alice ', password: 'x' },
      undefined,
      options,
    );
    expect(result).toEqual({ values: { username: 'alice', password: 'x' }, errors: {} });
  });

  it('gives the French message of the first issue of each field', async () => {
    const result = await schemaResolver(registerInput)(
      { username: 'a', password: 'short', email: 'nope', referral: '' },
      undefined,
      options,
    );
    expect(result.values).toEqual({});
    expect(result.errors.username?.message).toMatch(/au moins 3 caractères/);
    expect(result.errors.password?.message).toMatch(/au moins 8 caractères/);
    expect(result.errors.email?.message).toBe('Adresse e-mail invalide.');
  });
});
