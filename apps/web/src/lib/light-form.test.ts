import { describe, expect, it } from 'vitest';
import { emailRules, passwordRules, usernameRules } from '../features/auth/form-rules.ts';
import { checkField } from './light-form.ts';

describe('public form rules', () => {
  it('gives the first broken rule, with the contracts messages', () => {
    expect(checkField('', {}, usernameRules)).toMatch(/au moins 3 caractères/);
    expect(checkField('ab', {}, usernameRules)).toMatch(/au moins 3 caractères/);
    expect(checkField('a'.repeat(33), {}, usernameRules)).toMatch(/au plus 32 caractères/);
    expect(checkField('joueur', {}, usernameRules)).toBeUndefined();
    expect(checkField('', {}, passwordRules)).toMatch(/au moins 8 caractères/);
    expect(checkField('a'.repeat(129), {}, passwordRules)).toMatch(/au plus 128 caractères/);
    expect(checkField('pas-une-adresse', {}, emailRules)).toBe('Adresse e-mail invalide.');
    expect(checkField('joueur@example.test', {}, emailRules)).toBeUndefined();
  });

  it('runs validate against the other values', () => {
    const rules = {
      validate: (value: string, values: { password: string }) =>
        value === values.password || 'Les deux mots de passe ne correspondent pas.',
    };
    expect(checkField('b', { password: 'a' }, rules)).toBe('Les deux mots de passe ne correspondent pas.');
    expect(checkField('a', { password: 'a' }, rules)).toBeUndefined();
  });
});
